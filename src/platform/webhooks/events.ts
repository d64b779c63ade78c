// The event types a webhook endpoint may subscribe to, with the label the admin reads.
export const WEBHOOK_EVENTS = [
  { type: 'lead.criado', label: 'Lead de franquia recebido' },
  { type: 'mensagem.recebida', label: 'Mensagem do "Fale aqui" recebida' },
  { type: 'mensagem.status', label: 'Mensagem mudou de situação (nova → lida → respondida → resolvida)' },
  { type: 'pesquisa.respondida', label: 'Pesquisa de satisfação respondida' },
  { type: 'pesquisa.detrator', label: 'Pesquisa com nota de 0 a 6 (detrator)' },
  { type: 'aula_experimental.agendada', label: 'Aula experimental agendada' },
  { type: 'aula_experimental.status', label: 'Aula experimental mudou de situação' },
  { type: 'matricula.criada', label: 'Matrícula online aceita (aguardando pagamento)' },
  { type: 'matricula.ativada', label: 'Matrícula online ativada (pagamento confirmado)' },
  { type: 'matricula.cancelada', label: 'Matrícula online encerrada (desistência, expiração ou cancelamento)' },
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number]['type'];

/** What the "enviar teste" button sends; never subscribed, sent only to the endpoint asked. */
export const TEST_EVENT = 'webhook.teste';

export const isWebhookEvent = (s: string): s is WebhookEventType => WEBHOOK_EVENTS.some((e) => e.type === s);
