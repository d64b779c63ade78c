// npm run aggregates:rebuild — recounts the derived figures from the stored rows: the survey's
// (agregados_nps, agregados_opcoes), the clicks per week (agregados_cliques) and the trial-class
// bookings per week and status (agregados_agendamentos): after an import, a restore, or rows
// written by another tool. Safe while the site runs (one transaction each).
import { createBookingRepository } from '../features/booking/booking.repository';
import { createCtaRepository } from '../features/cta/cta.repository';
import { createAggregatesRepository } from '../features/feedback/survey/aggregates.repository';
import { runJob } from './jobs-common';

await runJob(
  'aggregates:rebuild',
  async ({ db }) => {
    const t0 = performance.now();
    const { nps, opcoes } = await createAggregatesRepository(db).rebuild();
    const cliques = await createCtaRepository(db).rebuildCounts();
    const agendamentos = await createBookingRepository(db).rebuildWeekCounts();
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    return (
      `Números recontados em ${seconds} s: ${nps} linhas de NPS, ${opcoes} de opções, ` +
      `${cliques} de cliques por semana, ${agendamentos} de aulas experimentais por semana.`
    );
  },
  { statementTimeoutMs: 0 },
);
