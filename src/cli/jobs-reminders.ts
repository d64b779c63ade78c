// npm run jobs:reminders — queues the trial-class reminders due now (the same job the
// server runs every 10 minutes; safe to run alongside it: each reminder is queued once).
import { sendReminders } from '../features/booking/booking.jobs';
import { runJob } from './jobs-common';

await runJob('jobs:reminders', async ({ db, config }) => {
  if (!config.smtp) return 'SMTP_HOST não definido: nenhum lembrete foi enfileirado.';
  const { queued } = await sendReminders({ db, config });
  return `${queued} lembrete(s) de aula experimental enfileirado(s).`;
});
