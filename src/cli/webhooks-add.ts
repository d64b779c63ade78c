// npm run webhooks:add -- --url URL --eventos lead.criado,mensagem.recebida
// Prints the endpoint's id and its signing secret (shown only here).
import { WEBHOOK_EVENTS } from '../platform/webhooks/events';
import { readFlags } from './args';
import { withWebhooks } from './webhooks-common';

const USAGE = `Uso: npm run webhooks:add -- --url https://… --eventos ${WEBHOOK_EVENTS.map((e) => e.type).join(',')}`;
const args = readFlags(USAGE, { url: { type: 'string' }, eventos: { type: 'string' } });
if (!args.url || !args.eventos) {
  console.error(USAGE);
  process.exit(1);
}
await withWebhooks(async ({ service }) => {
  const result = await service.create({ url: args.url, eventos: args.eventos, ativo: true });
  if (!result.ok) {
    for (const message of Object.values(result.errors)) console.error(message);
    process.exitCode = 1;
    return;
  }
  console.log(`id: ${result.id}`);
  console.log(`segredo: ${result.segredo}`);
  console.log('Guarde o segredo: ele não é mostrado de novo.');
});
