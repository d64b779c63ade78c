// The enrolment tables' SQL: what is offered (prices and terms of a plan at a unit, the
// contract's versions), the enrolments with their payments and history, and the links of
// "Minha matrícula". Every write takes the transaction the service gives it.
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/index';
import { TERM_COLUMNS } from '../content/plan-prices/plan-prices.repository';
import type { Database, EnrolmentStatus, MatriculasPagamentosTable, MatriculasTable } from '../../db/types';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Terms } from './terms';
import { createAccessLinks } from '../privacy/access-links.repository';

export type Enrolment = Selectable<MatriculasTable>;
export type NewEnrolment = Insertable<MatriculasTable>;
export type Payment = Selectable<Database['matriculas_pagamentos']>;
export type HistoryRow = Selectable<Database['matriculas_historico']> & { usuario_nome: string | null };
export type ContractVersion = Selectable<Database['contratos_versoes']>;

/** A unit as the enrolment pages show it: address and legal entity. */
export interface OfferUnit {
  id: number;
  nome: string;
  slug: string;
  endereco: string;
  bairro: string;
  cidade: string;
  uf: string;
  whatsapp: string | null;
  latitude: number | null;
  longitude: number | null;
  razao_social: string | null;
  cnpj: string | null;
  endereco_juridico: string | null;
}

/** A plan sold online at a unit, with its terms there. */
export interface OfferPlan extends Terms {
  id: number;
  nome: string;
  descricao: string | null;
}

export interface EnrolmentFilter {
  unitIds: number[] | null;
  status: EnrolmentStatus | null;
  from: string | null;
  to: string | null;
  /** only members with a monthly payment overdue (inadimplente) */
  defaulting?: boolean;
}

/** Statuses that hold the CPF at the unit (a second enrolment is refused). */
export const IN_FORCE: EnrolmentStatus[] = ['aguardando_pagamento', 'ativa', 'cancelamento_solicitado'];

export function createEnrolmentRepository(db: Kysely<Database>) {
  const postgres = isPostgres(db);
  const unitColumns = [
    'u.id',
    'u.nome',
    'u.slug',
    'u.endereco',
    'u.bairro',
    'u.cidade',
    'u.uf',
    'u.whatsapp',
    'u.latitude',
    'u.longitude',
    'u.razao_social',
    'u.cnpj',
    'u.endereco_juridico',
  ] as const;
  const offered = () =>
    db
      .selectFrom('planos_unidades as pu')
      .innerJoin('planos as p', 'p.id', 'pu.plano_id')
      .where('pu.venda_online', '=', 1)
      .where('pu.mensalidade_centavos', 'is not', null)
      .where('p.ativo', '=', 1);

  function filtered(f: EnrolmentFilter) {
    let q = db.selectFrom('matriculas as m');
    if (f.unitIds) q = f.unitIds.length ? q.where('m.unidade_id', 'in', f.unitIds) : q.where(sql<boolean>`1 = 0`);
    if (f.status) q = q.where('m.status', '=', f.status);
    if (f.from) q = q.where('m.criado_em', '>=', f.from);
    if (f.to) q = q.where('m.criado_em', '<', f.to);
    if (f.defaulting) q = q.where('m.inadimplente_desde', 'is not', null);
    return q;
  }

  /**
   * Writes `change` to a row only while its status is one of `from`: of two concurrent moves
   * (the person, staff, a provider's notice) only one happens. True when this call did it.
   */
  async function moveRow(
    table: 'matriculas' | 'matriculas_pagamentos',
    id: number,
    from: string[],
    change: Updateable<MatriculasTable> | Updateable<MatriculasPagamentosTable>,
  ): Promise<boolean> {
    const res = await db
      .updateTable(table)
      .set(change)
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** The ids, in order and at most `limit`, of the enrolments in `status` whose `column` has passed `bound`. */
  async function idsPast(
    status: EnrolmentStatus,
    column: 'expira_em' | 'cancelamento_efetivo_em',
    op: '<' | '<=',
    bound: string,
    limit: number,
  ): Promise<number[]> {
    const rows = await db
      .selectFrom('matriculas')
      .select('id')
      .where('status', '=', status)
      .where(column, op, bound)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  return {
    async unit(id: number): Promise<(OfferUnit & { ativo: number }) | undefined> {
      return db
        .selectFrom('unidades as u')
        .select([...unitColumns, 'u.ativo'])
        .where('u.id', '=', id)
        .executeTakeFirst();
    },

    async plansSold(unitId: number): Promise<OfferPlan[]> {
      const rows = await offered()
        .where('pu.unidade_id', '=', unitId)
        .select(['p.id', 'p.nome', 'p.descricao', ...TERM_COLUMNS])
        .orderBy('p.ordem')
        .orderBy('p.nome')
        .execute();
      return rows.map((r) => ({ ...r, mensalidade_centavos: r.mensalidade_centavos ?? 0 }));
    },

    /** The units that sell online (the unit page's button goes to the flow only there). */
    async unitIdsSelling(): Promise<number[]> {
      const rows = await offered()
        .innerJoin('unidades as u', 'u.id', 'pu.unidade_id')
        .where('u.cnpj', 'is not', null)
        .where('u.razao_social', 'is not', null)
        .select('pu.unidade_id')
        .distinct()
        .execute();
      return rows.map((r) => r.unidade_id);
    },

    async currentContract(): Promise<ContractVersion | undefined> {
      return db.selectFrom('contratos_versoes').selectAll().orderBy('versao', 'desc').limit(1).executeTakeFirst();
    },
    async contractVersion(versao: number): Promise<ContractVersion | undefined> {
      return db.selectFrom('contratos_versoes').selectAll().where('versao', '=', versao).executeTakeFirst();
    },
    async contractVersions(): Promise<(ContractVersion & { usuario_nome: string | null })[]> {
      return db
        .selectFrom('contratos_versoes as c')
        .leftJoin('usuarios as us', 'us.id', 'c.usuario_id')
        .selectAll('c')
        .select('us.nome as usuario_nome')
        .orderBy('c.versao', 'desc')
        .execute();
    },
    /** A new version numbered after the last; of two saves at once, the second fails on the unique number and
     * is retried. */
    async insertContractVersion(texto: string, usuarioId: number | null, now: string): Promise<ContractVersion> {
      const last = await db
        .selectFrom('contratos_versoes')
        .select((eb) => eb.fn.max('versao').as('v'))
        .executeTakeFirst();
      return db
        .insertInto('contratos_versoes')
        .values({ versao: Number(last?.v ?? 0) + 1, texto, usuario_id: usuarioId, criado_em: now })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async insertEnrolment(row: NewEnrolment): Promise<Enrolment> {
      return db.insertInto('matriculas').values(row).returningAll().executeTakeFirstOrThrow();
    },
    async inForce(unitId: number, cpf: string): Promise<Enrolment | undefined> {
      return db
        .selectFrom('matriculas')
        .selectAll()
        .where('unidade_id', '=', unitId)
        .where('cpf', '=', cpf)
        .where('status', 'in', IN_FORCE)
        .executeTakeFirst();
    },
    async byId(id: number): Promise<Enrolment | undefined> {
      return db.selectFrom('matriculas').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /**
     * Holds the enrolment's row until the transaction ends, so every change of an enrolment and
     * its payments takes its locks in one order (a withdrawal and a confirmation at once never
     * deadlock). SQLite writes one transaction at a time: nothing to do there.
     */
    async lock(id: number): Promise<void> {
      if (postgres) await db.selectFrom('matriculas').select('id').where('id', '=', id).forUpdate().execute();
    },
    async byCode(codigo: string): Promise<Enrolment | undefined> {
      return db.selectFrom('matriculas').selectAll().where('codigo', '=', codigo).executeTakeFirst();
    },
    async byEmail(email: string): Promise<Enrolment[]> {
      return db
        .selectFrom('matriculas')
        .selectAll()
        .where(sql<string>`lower(email)`, '=', email.toLowerCase())
        .where('anonimizado_em', 'is', null)
        .orderBy('criado_em', 'desc')
        .execute();
    },
    async hasEmail(email: string): Promise<boolean> {
      const row = await db
        .selectFrom('matriculas')
        .select('id')
        .where(sql<string>`lower(email)`, '=', email.toLowerCase())
        .where('anonimizado_em', 'is', null)
        .limit(1)
        .executeTakeFirst();
      return Boolean(row);
    },

    /** Moves an enrolment from one status to another only if it is still in `from`: true when this call did it. */
    async moveStatus(
      id: number,
      from: EnrolmentStatus[],
      to: EnrolmentStatus,
      patch: Partial<NewEnrolment>,
      now: string,
    ): Promise<boolean> {
      return moveRow('matriculas', id, from, { ...patch, status: to, atualizado_em: now });
    },
    async update(id: number, patch: Partial<NewEnrolment>): Promise<void> {
      await db.updateTable('matriculas').set(patch).where('id', '=', id).execute();
    },
    async addHistory(row: Insertable<Database['matriculas_historico']>): Promise<void> {
      await db.insertInto('matriculas_historico').values(row).execute();
    },
    async history(id: number): Promise<HistoryRow[]> {
      return db
        .selectFrom('matriculas_historico as h')
        .leftJoin('usuarios as us', 'us.id', 'h.usuario_id')
        .selectAll('h')
        .select('us.nome as usuario_nome')
        .where('h.matricula_id', '=', id)
        .orderBy('h.id')
        .execute();
    },

    async addPayment(row: Insertable<Database['matriculas_pagamentos']>): Promise<Payment> {
      return db.insertInto('matriculas_pagamentos').values(row).returningAll().executeTakeFirstOrThrow();
    },
    async payments(id: number): Promise<Payment[]> {
      return db.selectFrom('matriculas_pagamentos').selectAll().where('matricula_id', '=', id).orderBy('id').execute();
    },
    async paymentsOf(ids: number[]): Promise<Payment[]> {
      if (!ids.length) return [];
      return db
        .selectFrom('matriculas_pagamentos')
        .selectAll()
        .where('matricula_id', 'in', ids)
        .orderBy('id')
        .execute();
    },
    /** Settles a payment only if it is still in `from`: true when this call did it. */
    async settlePayment(
      id: number,
      from: string[],
      to: string,
      patch: { pago_em?: string | null; usuario_id?: number | null; provedor_id?: string | null },
      now: string,
    ): Promise<boolean> {
      return moveRow('matriculas_pagamentos', id, from, { ...patch, status: to, atualizado_em: now });
    },

    /** Unpaid enrolments whose time ran out. */
    expiredIds: (now: string, limit: number) => idsPast('aguardando_pagamento', 'expira_em', '<', now, limit),
    /** Cancellations whose paid period is over (the day is São Paulo's). */
    cancellationsDue: (day: string, limit: number) =>
      idsPast('cancelamento_solicitado', 'cancelamento_efetivo_em', '<=', day, limit),

    async list(f: EnrolmentFilter, limit: number, offset: number) {
      return filtered(f)
        .select([
          'm.id',
          'm.codigo',
          'm.unidade_id',
          'm.unidade_nome',
          'm.plano_nome',
          'm.nome',
          'm.status',
          'm.primeiro_pagamento_centavos',
          'm.mensalidade_centavos',
          'm.criado_em',
          'm.recepcao_em',
          'm.inadimplente_desde',
          'm.atencao',
        ])
        .orderBy('m.criado_em', 'desc')
        .orderBy('m.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },
    async count(f: EnrolmentFilter): Promise<number> {
      const row = await filtered(f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** One export batch: enrolments after `afterId`, oldest first. */
    async exportBatch(f: EnrolmentFilter, afterId: number, limit: number): Promise<Enrolment[]> {
      return filtered(f).selectAll('m').where('m.id', '>', afterId).orderBy('m.id').limit(limit).execute();
    },

    async countByStatus(): Promise<{ status: string; n: number }[]> {
      const rows = await db
        .selectFrom('matriculas')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute();
      return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
    },

    /** The attention queue: first payments waiting for staff, refunds to make (with the nearest deadline). */
    async attention(
      unitIds: number[] | null,
    ): Promise<{ awaiting: number; refunds: number; refundsDueBy: string | null }> {
      let waiting = db
        .selectFrom('matriculas as m')
        .where('m.status', '=', 'aguardando_pagamento')
        .where('m.provedor', '=', 'pix');
      let refunds = db
        .selectFrom('matriculas_pagamentos as p')
        .innerJoin('matriculas as m', 'm.id', 'p.matricula_id')
        .where('p.tipo', '=', 'reembolso')
        .where('p.status', '=', 'pendente');
      if (unitIds) {
        if (!unitIds.length) return { awaiting: 0, refunds: 0, refundsDueBy: null };
        waiting = waiting.where('m.unidade_id', 'in', unitIds);
        refunds = refunds.where('m.unidade_id', 'in', unitIds);
      }
      const a = await waiting.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const r = await refunds
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('p.prazo').as('prazo')])
        .executeTakeFirst();
      return {
        awaiting: Number(a?.n ?? 0),
        refunds: Number(r?.n ?? 0),
        refundsDueBy: (r?.prazo as string | null) ?? null,
      };
    },
    /** Refunds still to make, nearest deadline first; with `dueBefore`, only those due before it (or overdue). */
    async pendingRefunds(unitIds: number[] | null, dueBefore?: string, limit = 200) {
      let q = db
        .selectFrom('matriculas_pagamentos as p')
        .innerJoin('matriculas as m', 'm.id', 'p.matricula_id')
        .where('p.tipo', '=', 'reembolso')
        .where('p.status', '=', 'pendente');
      if (unitIds) q = unitIds.length ? q.where('m.unidade_id', 'in', unitIds) : q.where(sql<boolean>`1 = 0`);
      if (dueBefore) q = q.where('p.prazo', '<', dueBefore);
      return q
        .select([
          'p.id',
          'p.valor_centavos',
          'p.prazo',
          'p.criado_em',
          'm.id as matricula_id',
          'm.nome',
          'm.unidade_id',
          'm.unidade_nome',
        ])
        .orderBy('p.prazo')
        .orderBy('p.id')
        .limit(limit)
        .execute();
    },
    /** First payments by Pix that staff confirm against the bank statement, oldest first (at most `limit`). */
    async awaitingConfirmation(unitIds: number[] | null, limit: number) {
      let q = db
        .selectFrom('matriculas as m')
        .where('m.status', '=', 'aguardando_pagamento')
        .where('m.provedor', '=', 'pix');
      if (unitIds) q = unitIds.length ? q.where('m.unidade_id', 'in', unitIds) : q.where(sql<boolean>`1 = 0`);
      return q
        .select([
          'm.id',
          'm.unidade_id',
          'm.unidade_nome',
          'm.nome',
          'm.primeiro_pagamento_centavos',
          'm.criado_em',
          'm.expira_em',
        ])
        .orderBy('m.criado_em')
        .orderBy('m.id')
        .limit(limit)
        .execute();
    },

    /**
     * The trial-class funnel's enrolment steps per unit and São Paulo week (its Monday,
     * aaaa-mm-dd): enrolments started (criado_em) and activated (ativada_em) in [from, to).
     * Grouped in the database, so a chain's two years come back as one row per unit and week;
     * each count reads one index (matriculas_unidade_idx or matriculas_lista_idx,
     * matriculas_ativada_idx).
     */
    async funnelWeeks(
      unitIds: number[] | null,
      from: string,
      to: string,
    ): Promise<{ unidade_id: number; semana: string; iniciadas: number; ativadas: number }[]> {
      if (unitIds && !unitIds.length) return [];
      // São Paulo has kept UTC-3 all year since 2019; both engines' weeks start on Monday.
      const weekOf = (column: 'criado_em' | 'ativada_em') =>
        postgres
          ? sql<string>`to_char(date_trunc('week', cast(${sql.ref(column)} as timestamp) - interval '3 hours'),
              'YYYY-MM-DD')`
          : sql<string>`date(${sql.ref(column)}, '-3 hours', '-6 days', 'weekday 1')`;
      const count = async (column: 'criado_em' | 'ativada_em') => {
        let q = db
          .selectFrom('matriculas')
          .select(['unidade_id', weekOf(column).as('semana'), (eb) => eb.fn.countAll<number>().as('n')])
          .where(column, '>=', from)
          .where(column, '<', to);
        if (unitIds) q = q.where('unidade_id', 'in', unitIds);
        return q.groupBy(['unidade_id', 'semana']).execute();
      };
      const [started, activated] = await Promise.all([count('criado_em'), count('ativada_em')]);
      const cells = new Map<string, { unidade_id: number; semana: string; iniciadas: number; ativadas: number }>();
      const cell = (unidade_id: number, semana: string) => {
        const key = `${unidade_id}|${semana}`;
        let c = cells.get(key);
        if (!c) cells.set(key, (c = { unidade_id, semana, iniciadas: 0, ativadas: 0 }));
        return c;
      };
      for (const r of started) cell(r.unidade_id, r.semana).iniciadas += Number(r.n);
      for (const r of activated) cell(r.unidade_id, r.semana).ativadas += Number(r.n);
      return [...cells.values()];
    },

    /** The one-time links to "Minha matrícula" and the sessions they open. */
    ...createAccessLinks(db, 'matriculas_acessos'),
    async pruneAccess(before: string): Promise<void> {
      await db
        .deleteFrom('matriculas_acessos')
        .where('expira_em', '<', before)
        .where((eb) => eb.or([eb('sessao_expira_em', 'is', null), eb('sessao_expira_em', '<', before)]))
        .execute();
    },
  };
}

export type EnrolmentRepository = ReturnType<typeof createEnrolmentRepository>;
