// npm run webhooks:remove -- --id N   (its delivery log goes with it)
import { toId } from '../lib/form/index';
import { readFlags } from './args';
import { withWebhooks } from './webhooks-common';

const USAGE = 'Uso: npm run webhooks:remove -- --id <número do endpoint>';
const args = readFlags(USAGE, { id: { type: 'string' } });
const id = toId(args.id);
if (id === null) {
  console.error(USAGE);
  process.exit(1);
}
await withWebhooks(async ({ service }) => {
  if (!(await service.remove(id))) {
    console.error(`Não existe endpoint de webhook com id ${id}.`);
    process.exitCode = 1;
    return;
  }
  console.log(`Endpoint ${id} excluído.`);
});
