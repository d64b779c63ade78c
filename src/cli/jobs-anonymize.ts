// npm run jobs:anonymize — removes name, WhatsApp and e-mail from trial-class bookings
// whose class is more than 12 months old (the same job the server runs every 10 minutes).
import { anonymizeOldBookings } from '../features/booking/booking.jobs';
import { runJob } from './jobs-common';

await runJob('jobs:anonymize', async ({ db, config }) => {
  const { anonymized } = await anonymizeOldBookings({ db, config });
  return `${anonymized} agendamento(s) de aula experimental anonimizado(s).`;
});
