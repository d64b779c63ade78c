// npm run aggregates:rebuild — recounts the survey's derived figures (agregados_nps,
// agregados_opcoes) from the stored answers: after an import, a restore, or answers written
// by another tool. Safe while the site runs (one transaction).
import { createAggregatesRepository } from '../features/feedback/survey/aggregates.repository';
import { runJob } from './jobs-common';

await runJob(
  'aggregates:rebuild',
  async ({ db }) => {
    const t0 = performance.now();
    const { nps, opcoes } = await createAggregatesRepository(db).rebuild();
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    return `Números da pesquisa recontados em ${seconds} s: ${nps} linhas de NPS, ${opcoes} de opções.`;
  },
  { statementTimeoutMs: 0 },
);
