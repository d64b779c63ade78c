// npm run jobs:digest
// Queues this week's digest now (without waiting for Monday 08:00) for every admin and
// unit manager who wants it and has not had it this week: the same exactly-once rule as
// the scheduler, so running it twice, or next to running servers, sends nothing twice.
import { ConfigError, loadConfig, loadDotEnv } from '../config';
import { createDb, migrateToLatest } from '../db/index';
import { createDigestRepository } from '../features/feedback/digest/digest.repository';
import { createDigestService } from '../features/feedback/digest/digest.service';

loadDotEnv();
try {
  const config = loadConfig();
  if (!config.smtp) {
    console.error('O e-mail não está configurado (SMTP_HOST): nenhum resumo foi enfileirado.');
    process.exit(1);
  }
  const handle = createDb(config.database);
  try {
    await migrateToLatest(handle.db);
    const service = createDigestService(createDigestRepository(handle.db), {
      brandName: config.brandName,
      publicUrl: config.publicUrl,
      mailConfigured: true,
    });
    const result = await service.run(new Date(), { force: true });
    console.log(
      `Semana de ${result.semana.split('-').reverse().join('/')}: ${result.queued} resumo(s) enfileirado(s)` +
        (result.alreadySent ? `, ${result.alreadySent} já enviado(s) por outra instância` : '') +
        '. O envio é feito pelo worker de e-mail do servidor.',
    );
  } finally {
    await handle.destroy();
  }
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
