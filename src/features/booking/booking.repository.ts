// The only place the booking feature's SQL lives. A repository runs its statements on the
// db or the transaction it was built with; services open the transactions (decision 090).
import { createHash } from 'node:crypto';
import { inTransaction, isPostgres } from '../../db/index';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Db } from '../../db/index';
import type { AulasExperimentaisTable, Database, WithTrialCapacity } from '../../db/types';
import type { Insertable, Selectable } from 'kysely';
import { addDays, saoPauloDayStartIso } from '../../lib/time';
import { createEnvioRepository } from '../../platform/envio/envio.repository';
import { unitClasses, unitHours } from '../catalog/catalog.repository';

type BookingDb = Kysely<WithTrialCapacity>;
export type Booking = Selectable<AulasExperimentaisTable>;
export type NewBooking = Insertable<AulasExperimentaisTable>;

export const STATUSES = ['agendado', 'compareceu', 'nao_compareceu', 'matriculou'] as const;
export type BookingStatus = (typeof STATUSES)[number];

/** A 32-bit key for pg_advisory_xact_lock from any text. */
function lockKey(text: string): number {
  return createHash('sha256').update(text).digest().readInt32BE(0);
}
/** First argument of the two-key advisory locks: this feature's namespace. */
const LOCK_NAMESPACE = 140_014;

/**
 * Adds `delta` to a unit's week of counted bookings, per status (agregados_agendamentos), in the
 * caller's transaction. An upsert that adds to what is stored: concurrent writers never overwrite
 * each other's count, and the first booking of a week creates the row.
 */
async function countBookings(
  db: Kysely<Database>,
  semana: string,
  unidadeId: number,
  delta: Partial<Record<BookingStatus, number>>,
): Promise<void> {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, delta[s] ?? 0])) as Record<BookingStatus, number>;
  await db
    .insertInto('agregados_agendamentos')
    .values({ semana, unidade_id: unidadeId, ...counts })
    .onConflict((oc) =>
      oc
        .columns(['semana', 'unidade_id'])
        .doUpdateSet((eb) =>
          Object.fromEntries(STATUSES.map((s) => [s, eb(`agregados_agendamentos.${s}`, '+', eb.ref(`excluded.${s}`))])),
        ),
    )
    .execute();
}

export interface BookingUnit {
  id: number;
  nome: string;
  endereco: string;
  bairro: string;
  cidade: string;
  uf: string;
  telefone: string | null;
  whatsapp: string | null;
  latitude: number | null;
  longitude: number | null;
  vagas_experimentais: number;
  ativo: number;
}

/**
 * Bookings whose class falls on the São Paulo days from `fromDay` to `toDay`. `dia` decides;
 * the `inicio_em` range around it (a day wider each side, so a row never falls out) lets
 * the engines use the inicio_em index when no unit narrows the query.
 */
function inDays(fromDay: string, toDay: string) {
  const from = saoPauloDayStartIso(addDays(fromDay, -1));
  const to = saoPauloDayStartIso(addDays(toDay, 2));
  return sql<boolean>`b.dia >= ${fromDay} and b.dia <= ${toDay} and b.inicio_em >= ${from} and b.inicio_em < ${to}`;
}

export function createBookingRepository(plainDb: Db | Transaction<Database>) {
  // The capacity column is declared apart from UnidadesTable (see db/types.ts).
  const db = plainDb as unknown as BookingDb;
  const postgres = isPostgres(db);

  const repo = {
    findUnit(id: number): Promise<BookingUnit | undefined> {
      return db
        .selectFrom('unidades')
        .select([
          'id',
          'nome',
          'endereco',
          'bairro',
          'cidade',
          'uf',
          'telefone',
          'whatsapp',
          'latitude',
          'longitude',
          'vagas_experimentais',
          'ativo',
        ])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async schedule(unitId: number) {
      const [hours, classes] = await Promise.all([unitHours(plainDb, unitId), unitClasses(plainDb, unitId)]);
      return { hours, classes };
    },

    /** reservados per slot of a unit, for the slots asked. */
    async reserved(unitId: number, vagas: string[]): Promise<Map<string, number>> {
      const map = new Map<string, number>();
      if (!vagas.length) return map;
      const rows = await db
        .selectFrom('aulas_experimentais_vagas')
        .select(['vaga', 'reservados'])
        .where('unidade_id', '=', unitId)
        .where('vaga', 'in', vagas)
        .execute();
      for (const r of rows) map.set(r.vaga, r.reservados);
      return map;
    },

    /** The bookings stored under any of these keys (a posted envio_id and its content key). */
    findByEnvioIds(envioIds: string[]) {
      return db.selectFrom('aulas_experimentais').selectAll().where('envio_id', 'in', envioIds).execute();
    },

    /** The `envios` row that repeats this key and fingerprint, if any (docs/decisions/183, 184). */
    storedEnvio(envioId: string, fingerprint: string, staleBefore: string) {
      return createEnvioRepository(plainDb).findRepeat('aula_experimental', envioId, fingerprint, staleBefore);
    },

    /** The `envios` row of a key, whatever its fingerprint or age. */
    envioRow(envioId: string) {
      return createEnvioRepository(plainDb).find('aula_experimental', envioId);
    },

    findByCodigo(codigo: string) {
      return db.selectFrom('aulas_experimentais').selectAll().where('codigo', '=', codigo).executeTakeFirst();
    },

    findById(id: number) {
      return db.selectFrom('aulas_experimentais').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * Serialises bookings of one WhatsApp number at one unit until the transaction ends
     * (PostgreSQL; SQLite's BEGIN IMMEDIATE already serialises every writer).
     */
    async lockContact(unitId: number, whatsapp: string): Promise<void> {
      if (!postgres) return;
      await sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}, ${lockKey(`${unitId}:${whatsapp}`)})`.execute(db);
    },

    /** The contact's booking at this unit that has not started yet, if any. */
    futureBookingOf(unitId: number, whatsapp: string, nowIso: string) {
      return db
        .selectFrom('aulas_experimentais')
        .select(['id', 'inicio_em', 'atividade'])
        .where('unidade_id', '=', unitId)
        .where('whatsapp', '=', whatsapp)
        .where('status', '=', 'agendado')
        .where('inicio_em', '>', nowIso)
        .orderBy('inicio_em')
        .executeTakeFirst();
    },

    /**
     * Takes one place of the slot if one is left: a conditional UPDATE on the slot's counter
     * row. Concurrent callers queue on the row lock, and each re-checks `reservados <
     * capacity` after the one before it committed, so the count never passes the capacity.
     */
    async takePlace(unitId: number, vaga: string): Promise<boolean> {
      await db
        .insertInto('aulas_experimentais_vagas')
        .values({ unidade_id: unitId, vaga, reservados: 0 })
        .onConflict((oc) => oc.columns(['unidade_id', 'vaga']).doNothing())
        .execute();
      const result = await db
        .updateTable('aulas_experimentais_vagas')
        .set((eb) => ({ reservados: eb('reservados', '+', 1) }))
        .where('unidade_id', '=', unitId)
        .where('vaga', '=', vaga)
        .where((eb) =>
          eb('reservados', '<', eb.selectFrom('unidades').select('vagas_experimentais').where('id', '=', unitId)),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Stores a booking and counts it in its week, in one transaction (the caller's, if any). */
    async insert(booking: NewBooking): Promise<number> {
      return inTransaction(plainDb, async (trx) => {
        const row = await trx
          .insertInto('aulas_experimentais')
          .values(booking)
          .returning('id')
          .executeTakeFirstOrThrow();
        await countBookings(trx, booking.semana, booking.unidade_id, { [booking.status ?? 'agendado']: 1 });
        return row.id;
      });
    },

    // ---- staff side ----

    /**
     * How many bookings each São Paulo day between two days holds, for the units (null =
     * all): the staff list's day links, in one GROUP BY.
     */
    async countByDay(unitIds: number[] | null, fromDay: string, toDay: string): Promise<Map<string, number>> {
      let q = db
        .selectFrom('aulas_experimentais as b')
        .where(inDays(fromDay, toDay))
        .select(['b.dia', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('b.dia');
      if (unitIds) q = unitIds.length ? q.where('b.unidade_id', 'in', unitIds) : q.where(sql<boolean>`1 = 0`);
      return new Map((await q.execute()).map((r) => [r.dia, Number(r.n)]));
    },

    /** One page of a São Paulo day's bookings of the units (null = all), by start time. */
    listDay(unitIds: number[] | null, day: string, limit: number, offset: number) {
      let q = db
        .selectFrom('aulas_experimentais as b')
        .where(inDays(day, day))
        .innerJoin('unidades as u', 'u.id', 'b.unidade_id')
        .select([
          'b.id',
          'b.unidade_id',
          'u.nome as unidade',
          'b.atividade',
          'b.inicio_em',
          'b.fim_em',
          'b.dia',
          'b.nome',
          'b.whatsapp',
          'b.email',
          'b.status',
          'b.anonimizado_em',
          'b.criado_em',
        ]);
      if (unitIds) q = unitIds.length ? q.where('b.unidade_id', 'in', unitIds) : q.where(sql<boolean>`1 = 0`);
      return q.orderBy('b.inicio_em').orderBy('b.id').limit(limit).offset(offset).execute();
    },

    /**
     * Marks a booking and moves it between its week's counts, in one transaction. The status it
     * leaves is read under the row's lock (PostgreSQL; SQLite's BEGIN IMMEDIATE serialises the
     * writers), so two concurrent changes each move it from the one before.
     */
    async setStatus(id: number, status: BookingStatus, userId: number, nowIso: string): Promise<void> {
      await inTransaction(plainDb, async (trx) => {
        const current = trx
          .selectFrom('aulas_experimentais')
          .select(['status', 'semana', 'unidade_id'])
          .where('id', '=', id);
        const before = await (postgres ? current.forUpdate() : current).executeTakeFirst();
        await trx
          .updateTable('aulas_experimentais')
          .set({ status, status_por: userId, atualizado_em: nowIso })
          .where('id', '=', id)
          .execute();
        if (before && before.status !== status) {
          await countBookings(trx, before.semana, before.unidade_id, { [before.status]: -1, [status]: 1 });
        }
      });
    },

    /** Units (null = all) by name, with what the staff lists' text filter searches. */
    units(unitIds: number[] | null) {
      let q = db
        .selectFrom('unidades')
        .select(['id', 'nome', 'bairro', 'cidade', 'uf', 'ativo', 'vagas_experimentais']);
      if (unitIds) q = unitIds.length ? q.where('id', 'in', unitIds) : q.where(sql<boolean>`1 = 0`);
      return q.orderBy('nome').orderBy('id').execute();
    },

    async capacityOf(unitId: number): Promise<number | undefined> {
      return (await db.selectFrom('unidades').select('vagas_experimentais').where('id', '=', unitId).executeTakeFirst())
        ?.vagas_experimentais;
    },

    async setCapacity(unitId: number, vagas: number, nowIso: string): Promise<void> {
      await db
        .updateTable('unidades')
        .set({ vagas_experimentais: vagas, atualizado_em: nowIso })
        .where('id', '=', unitId)
        .execute();
    },

    async audit(row: {
      usuario_id: number;
      entidade_id: number;
      antes: unknown;
      depois: unknown;
      criado_em: string;
    }): Promise<void> {
      await db
        .insertInto('auditoria')
        .values({
          ...row,
          acao: 'editar',
          entidade: 'unidade',
          antes: JSON.stringify(row.antes),
          depois: JSON.stringify(row.depois),
        })
        .execute();
    },

    // ---- jobs ----

    /** Bookings of a São Paulo day that asked for mail and have no reminder yet. */
    reminderCandidates(day: string, createdBeforeIso: string) {
      return db
        .selectFrom('aulas_experimentais')
        .select('id')
        .where('dia', '=', day)
        .where('status', '=', 'agendado')
        .where('email', 'is not', null)
        .where('lembrete_em', 'is', null)
        .where('anonimizado_em', 'is', null)
        .where('criado_em', '<', createdBeforeIso)
        .orderBy('id')
        .execute();
    },

    /**
     * Marks the reminder as sent if no one did yet; true when this caller won. Two instances
     * racing: on PostgreSQL the second UPDATE waits for the first's row lock and then finds
     * lembrete_em set; on SQLite the write lock serialises them.
     */
    async claimReminder(id: number, nowIso: string) {
      const result = await db
        .updateTable('aulas_experimentais')
        .set({ lembrete_em: nowIso })
        .where('id', '=', id)
        .where('lembrete_em', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return undefined;
      return db.selectFrom('aulas_experimentais').selectAll().where('id', '=', id).executeTakeFirst();
    },

    // ---- funnel ----

    async funnelRows(unitIds: number[] | null, fromWeek: string, toWeek: string) {
      // Counted per week and unit with each click (features/cta), not read click by click; one
      // action is one row per week and unit (the key), so nothing is summed.
      let clicks = db
        .selectFrom('agregados_cliques')
        .select(['unidade_id', 'semana', 'n'])
        .where('acao', '=', 'aula_experimental')
        .where('semana', '>=', fromWeek)
        .where('semana', '<=', toWeek);
      // Counted per week and unit with each booking and status change: a row per unit and week.
      let bookings = db
        .selectFrom('agregados_agendamentos')
        .select([
          'unidade_id',
          'semana',
          sql<number>`agendado + compareceu + nao_compareceu + matriculou`.as('agendamentos'),
          sql<number>`compareceu + matriculou`.as('compareceram'),
          'matriculou as matricularam',
        ])
        .where('semana', '>=', fromWeek)
        .where('semana', '<=', toWeek);
      if (unitIds) {
        const ids = unitIds.length ? unitIds : [-1];
        clicks = clicks.where('unidade_id', 'in', ids);
        bookings = bookings.where('unidade_id', 'in', ids);
      }
      // Integer columns and sums of them: numbers on both engines, the rows go as they come.
      const [c, b] = await Promise.all([clicks.execute(), bookings.execute()]);
      return { clicks: c, bookings: b };
    },

    /**
     * Recounts the counted bookings from the stored ones (after bookings written by another
     * tool, such as seed:volume), in one transaction: readers see the old counts or the new.
     */
    async rebuildWeekCounts(): Promise<number> {
      const rows = await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('agregados_agendamentos').execute();
        const perStatus = STATUSES.map((s) => sql`sum(case when status = ${s} then 1 else 0 end)`);
        await sql`insert into agregados_agendamentos (semana, unidade_id, ${sql.join(STATUSES.map((s) => sql.ref(s)))})
          select semana, unidade_id, ${sql.join(perStatus)} from aulas_experimentais
          group by semana, unidade_id order by 1, 2`.execute(trx);
        const row = await trx
          .selectFrom('agregados_agendamentos')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
        return Number(row.n);
      });
      if (postgres) await sql`analyze agregados_agendamentos`.execute(db);
      return rows;
    },
  };
  return repo;
}

export type BookingRepository = ReturnType<typeof createBookingRepository>;
