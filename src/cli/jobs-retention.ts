// npm run jobs:retention — applies the retention periods (RETENTION_*_MONTHS) once: the
// same job the server runs every hour; safe to run next to running servers.
import { createFileStorage } from '../platform/storage/index';
import { createPrivacyServices } from '../features/privacy/services';
import { runJob } from './jobs-common';

await runJob('jobs:retention', async ({ db, config }) => {
  const { retention } = createPrivacyServices({ db, config, storage: createFileStorage(config, db) });
  const r = await retention.run();
  return [
    `${r.surveyContacts} contato(s) de pesquisa anonimizado(s).`,
    `${r.messages} mensagem(ns) do Fale aqui anonimizada(s), ${r.photos} foto(s) excluída(s).`,
    `${r.leads} contato(s) de franquia anonimizado(s).`,
    `${r.bookings} agendamento(s) de aula experimental anonimizado(s).`,
    `${r.enrolments} matrícula(s) online encerrada(s) há mais de 5 anos anonimizada(s).`,
    `${r.incidents} registro(s) de incidente com mais de 5 anos excluído(s).`,
  ].join('\n');
});
