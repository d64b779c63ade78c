// npm run webhooks:list — every endpoint: id, on/off, URL, events, deliveries by status.
import { withWebhooks } from './webhooks-common';

await withWebhooks(async ({ service }) => {
  const endpoints = await service.list();
  if (!endpoints.length) console.log('Nenhum endpoint de webhook.');
  for (const e of endpoints) {
    const events = e.eventos.split(',').filter(Boolean).join(',');
    const d = e.entregas;
    console.log(
      `${e.id}\t${e.ativo ? 'ligado' : 'desligado'}\t${e.url}\t${events}\t` +
        `fila=${(d.pendente ?? 0) + (d.enviando ?? 0)} entregues=${d.entregue ?? 0} falharam=${d.falhou ?? 0}`,
    );
  }
});
