// A trial-class booking as webhook subscribers get it: its public fields and the unit (never
// the thanks-page code, which opens the customer's booking).
import type { Booking } from './booking.repository';

const STAFF_PATH = '/admin/aulas-experimentais';

export function bookingEventData(b: Booking, unitName: string | null, publicUrl: string) {
  return {
    id: b.id,
    unidade: { id: b.unidade_id, nome: unitName },
    atividade: b.atividade,
    inicio_em: b.inicio_em,
    fim_em: b.fim_em,
    dia: b.dia,
    nome: b.nome,
    whatsapp: b.whatsapp,
    email: b.email,
    aceita_contato: Boolean(b.aceita_contato),
    status: b.status,
    criado_em: b.criado_em,
    url_equipe: `${publicUrl}${STAFF_PATH}?dia=${b.dia}`,
  };
}
