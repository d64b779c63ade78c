// A free message as webhook subscribers get it: its public fields, the unit, and staff links
// (the message, each photo) instead of the photos themselves.
// The inbox's address (inbox.view.tsx): not imported, the view imports the services' side.
const INBOX_PATH = '/admin/mensagens';

export interface MessageForEvent {
  id: number;
  unidade_id: number | null;
  unidade: string;
  nome_completo: string;
  anonimo: number | boolean;
  mensagem: string;
  status: string;
  criado_em: string;
  contato_email: string | null;
  contato_telefone: string | null;
  aceite_contato: number | boolean;
}

export function messageEventData(m: MessageForEvent, fileIds: number[], publicUrl: string) {
  return {
    id: m.id,
    unidade: { id: m.unidade_id, nome: m.unidade },
    nome_completo: m.anonimo ? null : m.nome_completo,
    anonimo: Boolean(m.anonimo),
    mensagem: m.mensagem,
    status: m.status,
    contato_email: m.contato_email,
    contato_telefone: m.contato_telefone,
    aceite_contato: Boolean(m.aceite_contato),
    criado_em: m.criado_em,
    url_equipe: `${publicUrl}${INBOX_PATH}/${m.id}`,
    // Links for logged-in staff only; the photos never leave in the event.
    fotos: fileIds.map((id) => ({ url_equipe: `${publicUrl}${INBOX_PATH}/foto/${id}` })),
  };
}
