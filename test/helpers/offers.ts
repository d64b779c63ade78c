// The offers the site sells online, as the enrolment pages find them: plans sold online at
// active units that have a CNPJ (the seller's identification the summary must show). Shared by
// the tests, the browser tests and the soak, so they all pick what a visitor could buy.
import type { Db } from '../../src/db/index';

export function onlineOffers(db: Db) {
  return db
    .selectFrom('planos_unidades as pu')
    .innerJoin('unidades as u', 'u.id', 'pu.unidade_id')
    .select(['pu.unidade_id', 'pu.plano_id'])
    .where('pu.venda_online', '=', 1)
    .where('u.ativo', '=', 1)
    .where('u.cnpj', 'is not', null)
    .orderBy('pu.unidade_id');
}
