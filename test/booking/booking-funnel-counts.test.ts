// The funnel's bookings come from agregados_agendamentos (per week, unit and status), kept in the
// transaction of each booking and each status change: after bookings over weeks and units, status
// changes (two at once on one booking, and on one unit's week) and the retention job's
// anonymisation, the funnel equals a recount of the stored bookings, and so does the rebuild.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactional } from '../../src/db/transactional';
import { createBookingRepository } from '../../src/features/booking/booking.repository';
import { createBookingService } from '../../src/features/booking/booking.service';
import { createTestApp, type TestContext } from '../helpers/app';
import { form } from '../helpers/http';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  const a = await createStaffUser(t.db, { papel: 'admin', nome: 'Admin' });
  admin = await loginAs(t.app, a.email, a.password);
});
afterAll(async () => t?.close());

const FIRST_WEEK = '2025-12-01';
const LAST_WEEK = '2026-02-02';
const byCell = <T extends { unidade_id: number; semana: string }>(rows: T[]) =>
  [...rows].sort((a, b) => a.unidade_id - b.unidade_id || a.semana.localeCompare(b.semana));

/** The funnel's booking steps as the staff pages read them (from the counts). */
const counted = async () =>
  byCell((await createBookingRepository(t.db).funnelRows(null, FIRST_WEEK, LAST_WEEK)).bookings);

/** The same steps recounted booking by booking, as the funnel read them before the counts. */
const recounted = async () =>
  byCell(
    (
      await t.db
        .selectFrom('aulas_experimentais')
        .select([
          'unidade_id',
          'semana',
          (eb) => eb.fn.countAll().as('agendamentos'),
          (eb) => eb.fn.sum(eb.case().when('status', 'in', ['compareceu', 'matriculou']).then(1).else(0).end()).as('c'),
          (eb) => eb.fn.sum(eb.case().when('status', '=', 'matriculou').then(1).else(0).end()).as('m'),
        ])
        .where('semana', '>=', FIRST_WEEK)
        .where('semana', '<=', LAST_WEEK)
        .groupBy(['unidade_id', 'semana'])
        .execute()
    ).map((r) => ({
      unidade_id: r.unidade_id,
      semana: r.semana,
      agendamentos: Number(r.agendamentos),
      compareceram: Number(r.c),
      matricularam: Number(r.m),
    })),
  );

async function postStatus(id: number, status: string) {
  const token = await staffToken(t.app, admin, '/admin/aulas-experimentais');
  return t.app.inject({
    method: 'POST',
    url: `/admin/aulas-experimentais/${id}/status`,
    headers: { cookie: admin, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ csrf_token: token, status, voltar: '/admin/aulas-experimentais' }),
  });
}

describe('counted bookings', () => {
  it('equal a recount after bookings, status changes (two at once), anonymisation and a rebuild', async () => {
    const units = (await t.db.selectFrom('unidades').select('id').orderBy('id').limit(3).execute()).map((u) => u.id);
    const weeks = [FIRST_WEEK, '2025-12-29', LAST_WEEK];
    const repo = transactional(t.db, createBookingRepository);
    const service = createBookingService({ config: t.config }, repo);
    const ids: number[] = [];
    for (let i = 0; i < 24; i++) {
      // Booked on the Monday of its week (São Paulo noon), as the public form would have then.
      const now = new Date(`${weeks[Math.floor(i / 3) % weeks.length]}T15:00:00.000Z`);
      const unit = (await service.activeUnit(units[i % units.length]!))!;
      const slot = (await service.offeredDays(unit, now)).flatMap((d) => d.slots)[i]!;
      const values = { envio_id: `contagem-envio-${i}-0000`, nome: `Visitante ${i}`, aceita_contato: 'sim' };
      const whatsapp = `(21) 9${String(7000_0000 + i)}`;
      const out = await service.book(unit.id, { ...values, whatsapp, email: '', vaga: slot.value }, now);
      if (out.kind !== 'booked') throw new Error(`booking failed: ${JSON.stringify(out)}`);
      ids.push(out.booking.id);
    }
    expect(await counted()).toEqual(await recounted());

    // One after another, back and forth, and a change to the status a booking already has.
    for (const [i, status] of [
      [0, 'compareceu'],
      [1, 'matriculou'],
      [2, 'nao_compareceu'],
      [0, 'matriculou'],
      [2, 'agendado'],
      [1, 'matriculou'],
    ] as const) {
      expect((await postStatus(ids[i]!, status)).statusCode).toBe(303);
    }
    expect(await counted()).toEqual(await recounted());

    // Two changes of one booking at once (on PostgreSQL, two connections of the pool), and two
    // bookings of one unit's week at once: neither change is lost and none fails.
    const at = await Promise.all([
      ...[3, 4, 5, 7].flatMap((i) => [postStatus(ids[i]!, 'compareceu'), postStatus(ids[i]!, 'matriculou')]),
      postStatus(ids[6]!, 'nao_compareceu'),
      postStatus(ids[15]!, 'compareceu'),
    ]);
    expect(at.map((r) => r.statusCode)).toEqual(Array(10).fill(303));
    expect(await counted()).toEqual(await recounted());
    const cell = (await counted()).find((r) => r.unidade_id === units[0] && r.semana === weeks[2]);
    expect(cell).toMatchObject({ agendamentos: 2, compareceram: 1, matricularam: 0 });

    // The retention job anonymises every one of them: names go, the counts stay.
    const anonymised = await t.app.retentionJob.run(new Date('2027-06-01T12:00:00.000Z'));
    expect(anonymised.bookings).toBeGreaterThanOrEqual(24);
    expect(await counted()).toEqual(await recounted());

    // Bookings written by another tool are counted by the rebuild, which keeps the rows above.
    const before = await counted();
    await t.db.updateTable('aulas_experimentais').set({ status: 'compareceu' }).where('id', '=', ids[10]!).execute();
    expect(await counted()).toEqual(before);
    await repo.rebuildWeekCounts();
    expect(await counted()).toEqual(await recounted());
    expect(await counted()).not.toEqual(before);
  });
});
