// Trial classes, staff side: bookings by day with unit scope, attendance marks,
// capacity screen, the funnel and its CSV, and the jobs (reminder exactly once across two
// instances with a fake clock; anonymisation after 12 months). Both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { createDb, type DbHandle } from '../../src/db/index';
import { transactional } from '../../src/db/transactional';
import { createBookingRepository } from '../../src/features/booking/booking.repository';
import { createBookingService } from '../../src/features/booking/booking.service';
import { createCtaRepository } from '../../src/features/cta/cta.repository';
import { addDays, mondayOf, spDay, spInstant } from '../../src/features/booking/slots';
import { deliverDueMail } from '../../src/platform/mail/worker';
import { createTestApp, type TestContext } from '../helpers/app';
import { TEST_ENGINE } from '../helpers/db';
import { form } from '../helpers/http';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';
import { enrolmentRow } from '../helpers/enrolment';

let ctx: TestContext;
let smtp: TestSmtp;
let second: { app: App; handle: DbHandle | null };
let admin: string;
let manager: string;

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestApp({ env: { ...smtp.env, PUBLIC_URL: 'https://www.exemplo.com.br' } });
  // A second instance of the app on the same database: its own pool on PostgreSQL. On
  // SQLite the same connection (as in test/content/content-instances.test.ts): better-sqlite3 waits for
  // a lock synchronously, so two connections in one process would block each other's
  // event loop; separate processes on one file are serialised by BEGIN IMMEDIATE.
  const handle = TEST_ENGINE === 'postgres' ? createDb(ctx.testDb.config) : null;
  second = { app: await buildApp(ctx.config, { db: handle ?? ctx.testDb.handle, logger: false }), handle };
  await second.app.ready();
  const a = await createStaffUser(ctx.db, { papel: 'admin', nome: 'Admin' });
  const m = await createStaffUser(ctx.db, { papel: 'gerente', nome: 'Gerente Pinheiros', unidadeIds: [1] });
  admin = await loginAs(ctx.app, a.email, a.password);
  manager = await loginAs(ctx.app, m.email, m.password);
});
afterAll(async () => {
  await second?.app.close();
  await second?.handle?.destroy();
  await ctx?.close();
  await smtp?.close();
});

let seq = 0;
/** Books the n-th offered class of a unit at least `minDaysAhead` days ahead, directly through the service. */
async function book(
  unit: number,
  opts: { email?: string; minDaysAhead?: number; slotIndex?: number; livre?: boolean } = {},
) {
  const service = createBookingService({ config: ctx.config }, transactional(ctx.db, createBookingRepository));
  const u = (await service.activeUnit(unit))!;
  const days = await service.offeredDays(u, new Date());
  const slots = days
    .slice(opts.minDaysAhead ?? 2)
    .flatMap((d) => d.slots.filter((s) => (opts.livre ? s.kind === 'livre' : s.kind === 'aula')));
  const slot = slots[opts.slotIndex ?? 0]!;
  seq++;
  const out = await service.book(unit, {
    envio_id: `staff-test-envio-${seq}-${Date.now()}`,
    nome: `Visitante ${seq}`,
    whatsapp: `(21) 9${String(7000_0000 + seq)}`,
    email: opts.email ?? '',
    aceita_contato: 'sim',
    vaga: slot.value,
  });
  if (out.kind !== 'booked') throw new Error(`booking failed: ${JSON.stringify(out)}`);
  return out.booking;
}

async function postStatus(cookie: string, id: number, status: string, voltar = '/admin/aulas-experimentais') {
  const token = await staffToken(ctx.app, cookie, '/admin/aulas-experimentais');
  return ctx.app.inject({
    method: 'POST',
    url: `/admin/aulas-experimentais/${id}/status`,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ csrf_token: token, status, voltar }),
  });
}

describe('bookings by day', () => {
  it(`a manager sees their units only, one day at a time (today by default); marks attendance; another unit is \
403`, async () => {
    const mine = await book(1);
    const other = await book(2);
    const day = `/admin/aulas-experimentais?dia=${mine.dia}`;
    const first = await ctx.app.inject({ url: '/admin/aulas-experimentais', headers: { cookie: manager } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toContain('no-store');
    // today is shown; the booking's day is a link with its count, after today's
    expect(first.body).toContain(`<h2 id="dia-escolhido">Hoje, `);
    expect(first.body).not.toContain(mine.nome);
    expect(first.body.indexOf('<h2 id="dias-hoje">Hoje</h2>')).toBeLessThan(
      first.body.indexOf('<h2 id="dias-proximos">Próximos dias</h2>'),
    );
    expect(first.body).toMatch(
      new RegExp(
        `<a href="${day.replace('?', '\\?')}">[^<]+<span class="badge">1<span class="visually-hidden"> ` +
          `agendamento</span>`,
      ),
    );
    const page = await ctx.app.inject({ url: day, headers: { cookie: manager } });
    expect(other.dia).toBe(mine.dia); // the same day: the scope, not the day, hides the other unit's
    expect(page.body).toContain(mine.nome);
    expect(page.body).not.toContain(other.nome);
    expect(page.body).toContain(`https://wa.me/${mine.whatsapp!.slice(1)}?text=`);
    expect(
      (await ctx.app.inject({ url: '/admin/aulas-experimentais?unidade_id=2', headers: { cookie: manager } }))
        .statusCode,
    ).toBe(403);

    const res = await postStatus(manager, mine.id, 'compareceu', day);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${day}&salvo=${mine.id}#agendamento-${mine.id}`);
    const row = await ctx.db
      .selectFrom('aulas_experimentais')
      .select(['status', 'status_por'])
      .where('id', '=', mine.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('compareceu');
    expect((await postStatus(manager, other.id, 'compareceu')).statusCode).toBe(403);
    expect((await postStatus(manager, mine.id, 'sumiu')).statusCode).toBe(422);
    expect((await postStatus(manager, 999999, 'compareceu')).statusCode).toBe(404);

    const all = await ctx.app.inject({
      url: `/admin/aulas-experimentais?dia=${other.dia}`,
      headers: { cookie: admin },
    });
    expect(all.body).toContain(other.nome);
    expect((await ctx.app.inject({ url: day, headers: { cookie: admin } })).body).toContain(mine.nome);
    expect((await ctx.app.inject({ url: '/admin/aulas-experimentais' })).statusCode).toBe(303);
  });

  it('the capacity screen: a manager edits their unit (audited), bad values get 422, other units 403', async () => {
    const token = await staffToken(ctx.app, manager, '/admin/aulas-experimentais/vagas');
    const post = (id: number, v: string, cookie = manager) =>
      ctx.app.inject({
        method: 'POST',
        url: '/admin/aulas-experimentais/vagas',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ csrf_token: token, [`vagas[${id}]`]: v }),
      });
    const page = await ctx.app.inject({ url: '/admin/aulas-experimentais/vagas', headers: { cookie: manager } });
    expect(page.body).toContain('id="vagas-1"');
    expect(page.body).not.toContain('id="vagas-2"');
    const bad = await post(1, '0');
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Informe um número inteiro de 1 a 50.');
    expect((await post(1, 'abc')).statusCode).toBe(422);
    expect((await post(2, '5')).statusCode).toBe(403);
    const ok = await post(1, '5');
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/admin/aulas-experimentais/vagas?salvo=1');
    const unit = await ctx.db.selectFrom('unidades').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    expect((unit as { vagas_experimentais?: number }).vagas_experimentais).toBe(5);
    const audit = await ctx.db
      .selectFrom('auditoria')
      .selectAll()
      .where('entidade', '=', 'unidade')
      .where('entidade_id', '=', 1)
      .execute();
    expect(audit.at(-1)!.depois).toBe('{"vagas_experimentais":5}');
    const form2 = await ctx.app.inject({ url: '/aula-experimental?unidade=1' });
    expect(form2.body).toMatch(/5 vagas/);
  });
});

describe('funnel', () => {
  it(`counts CTA clicks → bookings → attended → enrolled per unit and week, on the page and as a defused \
CSV`, async () => {
    const week = mondayOf(spDay(new Date()));
    const now = new Date().toISOString();
    await ctx.db
      .insertInto('cliques_cta')
      .values([
        ...Array.from({ length: 8 }, () => ({
          unidade_id: 4,
          acao: 'aula_experimental',
          plano_id: null,
          semana: week,
          criado_em: now,
        })),
        { unidade_id: 4, acao: 'whatsapp', plano_id: null, semana: week, criado_em: now },
      ])
      .execute();
    // Clicks written straight into the table, as seed:volume does: counted as aggregates:rebuild counts them.
    await createCtaRepository(ctx.db).rebuildCounts();
    const b1 = await book(4);
    const b2 = await book(4, { slotIndex: 1 });
    const b3 = await book(4, { slotIndex: 2 });
    await book(4, { slotIndex: 3 });
    await postStatus(admin, b1.id, 'compareceu');
    await postStatus(admin, b2.id, 'matriculou');
    await postStatus(admin, b3.id, 'nao_compareceu');

    const page = await ctx.app.inject({
      url: '/admin/aulas-experimentais/funil?unidade_id=4',
      headers: { cookie: admin },
    });
    expect(page.statusCode).toBe(200);
    const { nome: unitName, ...city } = await ctx.db
      .selectFrom('unidades')
      .select(['nome', 'cidade', 'uf'])
      .where('id', '=', 4)
      .executeTakeFirstOrThrow();
    // clicks 8, bookings 4 (50%), attended 2 (50%), enrolled 1 (50%); the unit named with its city
    expect(page.body).toContain(
      `<th scope="row">${unitName}<span class="muted"> · ` +
        `${city.cidade}/${city.uf}</span></th><td>8</td><td>4</td><td>50%</td>` +
        '<td>2</td><td>50%</td><td>1</td><td>50%</td>',
    );

    const list = await ctx.app.inject({ url: '/admin/aulas-experimentais?unidade_id=4', headers: { cookie: admin } });
    expect(list.body.replace(/<!-- -->/g, '')).toContain(
      '8 cliques → 4 agendamentos (50%) → 2 presenças (50%) → 1 matrículas (50%)',
    );

    await ctx.db
      .updateTable('unidades')
      .set({ nome: '=HYPERLINK("http://mal.example")' })
      .where('id', '=', 4)
      .execute();
    const csv = await ctx.app.inject({
      url: '/admin/aulas-experimentais/funil.csv?unidade_id=4',
      headers: { cookie: admin },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.charCodeAt(0)).toBe(0xfeff);
    const weekBr = `${week.slice(8, 10)}/${week.slice(5, 7)}/${week.slice(0, 4)}`;
    const unit4 = await ctx.db
      .selectFrom('unidades')
      .select(['cidade', 'uf'])
      .where('id', '=', 4)
      .executeTakeFirstOrThrow();
    expect(csv.body).toContain('Unidade;Cidade;UF;Semana (segunda-feira);');
    expect(csv.body).toContain(
      `"'=HYPERLINK(""http://mal.example"")";${unit4.cidade};${unit4.uf};${weekBr};8;4;2;1;50%;50%;50%;12,5%`,
    );
    await ctx.db.updateTable('unidades').set({ nome: unitName }).where('id', '=', 4).execute();

    // Unit scope applies to the funnel and its export too.
    expect(
      (await ctx.app.inject({ url: '/admin/aulas-experimentais/funil?unidade_id=4', headers: { cookie: manager } }))
        .statusCode,
    ).toBe(403);
    expect(
      (await ctx.app.inject({ url: '/admin/aulas-experimentais/funil.csv?unidade_id=4', headers: { cookie: manager } }))
        .statusCode,
    ).toBe(403);
    const mine = await ctx.app.inject({ url: '/admin/aulas-experimentais/funil', headers: { cookie: manager } });
    expect(mine.body).not.toContain(unitName);
  });

  it(`adds the online enrolments started and activated per unit and São Paulo week, on the page and at the end of \
the CSV`, async () => {
    const unit = await ctx.db
      .selectFrom('unidades')
      .select(['id', 'nome', 'cidade', 'uf'])
      .where('ativo', '=', 1)
      .where('id', 'not in', [1, 2, 4, 5, 6])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const planId = (await ctx.db.selectFrom('planos').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const week = mondayOf(spDay(new Date()));
    const lastWeek = addDays(week, -7);
    const at = (day: string, hhmm: string) => spInstant(day, hhmm).toISOString();
    let n = 0;
    const enrolment = (criado_em: string, ativada_em: string | null) =>
      enrolmentRow(
        {
          codigo: `funil-${++n}`,
          unidade_id: unit.id,
          plano_id: planId,
          status: ativada_em ? 'ativa' : 'aguardando_pagamento',
          nome: `Pessoa ${n}`,
          cpf: String(80000000000 + n),
          email: `funil${n}@exemplo.com.br`,
          unidade_nome: unit.nome,
          ativada_em,
        },
        criado_em,
      );
    await ctx.db
      .insertInto('matriculas')
      .values([
        // started and activated this week
        enrolment(at(week, '10:00'), at(week, '12:00')),
        // 00:30 on Monday in São Paulo is still Sunday in UTC: this week all the same
        enrolment(at(week, '00:30'), null),
        // 23:30 on the Sunday before is already Monday in UTC: last week; activated this week
        enrolment(at(addDays(week, -1), '23:30'), at(week, '09:00')),
        // before the period: neither step
        enrolment(at(addDays(week, -7 * 9), '10:00'), null),
      ])
      .execute();

    const page = await ctx.app.inject({
      url: `/admin/aulas-experimentais/funil?unidade_id=${unit.id}`,
      headers: { cookie: admin },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Matrículas online iniciadas');
    // the period's total: 3 started, 2 activated (66,7%); no clicks or bookings at this unit
    expect(page.body).toContain(
      `<th scope="row">${unit.nome}<span class="muted"> · ${unit.cidade}/${unit.uf}</span></th>` +
        '<td>0</td><td>0</td><td>—</td><td>0</td><td>—</td><td>0</td><td>—</td><td>3</td><td>2</td><td>66,7%</td>',
    );
    const weekBr = (w: string) => `${w.slice(8, 10)}/${w.slice(5, 7)}/${w.slice(0, 4)}`;
    // the weekly table lists weeks with an enrolment even without a click or booking
    expect(page.body).toContain(`<td>${weekBr(week)}</td><td>0</td>`);
    expect(page.body).toContain(`<td>${weekBr(lastWeek)}</td><td>0</td>`);

    const csv = await ctx.app.inject({
      url: `/admin/aulas-experimentais/funil.csv?unidade_id=${unit.id}`,
      headers: { cookie: admin },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(
      ';Clique → matrícula;Matrículas online iniciadas;Matrículas online ativadas;Iniciada → ativada\r\n',
    );
    const line = (w: string) => `${unit.nome};${unit.cidade};${unit.uf};${weekBr(w)};0;0;0;0;—;—;—;—;`;
    expect(csv.body).toContain(`${line(week)}2;2;100%\r\n`);
    expect(csv.body).toContain(`${line(lastWeek)}1;0;0%\r\n`);
    expect(csv.body).toContain(`${line(addDays(week, -14))}0;0;—\r\n`);

    // a manager of another unit sees none of it
    const mine = await ctx.app.inject({ url: '/admin/aulas-experimentais/funil.csv', headers: { cookie: manager } });
    expect(mine.body).not.toContain(unit.nome);
  });
});

describe('jobs', () => {
  it(`reminders: two instances with a fake clock queue and send exactly one mail per booking, the day before, from \
09:00`, async () => {
    await ctx.db.deleteFrom('fila_emails').execute();
    const first = await book(5, { email: 'um@example.com', minDaysAhead: 3 });
    const classDay = first.dia;
    const sameDay = [first];
    for (let i = 1; i < 6; i++) {
      const b = await book(5, { email: `p${i}@example.com`, minDaysAhead: 3, slotIndex: i, livre: false }).catch(
        () => null,
      );
      if (b && b.dia === classDay) sameDay.push(b);
    }
    const noEmail = await book(5, { minDaysAhead: 3, slotIndex: 6 }).catch(() => null);
    await ctx.db.deleteFrom('fila_emails').execute(); // drop the confirmations: only reminders count below

    const dayBefore = addDays(classDay, -1);
    const early = spInstant(dayBefore, '08:30');
    expect(await ctx.app.bookingJobs.reminders(early)).toEqual({ queued: 0 });
    expect((await ctx.app.bookingJobs.reminders(spInstant(addDays(classDay, -2), '10:00'))).queued).toBe(0);

    const at = spInstant(dayBefore, '10:00');
    const results = await Promise.all([
      ctx.app.bookingJobs.reminders(at),
      second.app.bookingJobs.reminders(at),
      ctx.app.bookingJobs.reminders(at),
      second.app.bookingJobs.reminders(new Date(at.getTime() + 60_000)),
    ]);
    const withEmail = sameDay.length;
    expect(results.reduce((n, r) => n + r.queued, 0)).toBe(withEmail);
    // Later runs that day find nothing left.
    expect((await second.app.bookingJobs.reminders(spInstant(dayBefore, '20:00'))).queued).toBe(0);

    const queued = await ctx.db.selectFrom('fila_emails').selectAll().execute();
    expect(queued).toHaveLength(withEmail);
    expect(new Set(queued.map((q) => q.origem)).size).toBe(withEmail);
    for (const q of queued) expect(q.origem).toMatch(/^aulas_experimentais:\d+:lembrete$/);
    expect(queued.map((q) => q.destinatario).sort()).toEqual(sameDay.map((b) => b.email).sort());
    if (noEmail) expect(queued.some((q) => q.origem === `aulas_experimentais:${noEmail.id}:lembrete`)).toBe(false);

    // Delivered by both instances' workers at once: one message per booking.
    await Promise.all([
      deliverDueMail({ db: ctx.db, config: ctx.config }, { now: at }),
      deliverDueMail({ db: second.app.db, config: ctx.config }, { now: at }),
    ]);
    const reminders = smtp.messages.filter((m) => m.subject.startsWith('Lembrete: sua aula experimental é amanhã'));
    expect(reminders).toHaveLength(withEmail);
    expect(reminders[0]!.raw).toContain('https://www.exemplo.com.br/aula-experimental/confirmada/');
  });

  it('the retention job anonymises bookings whose class is over 12 months old, once, keeping the funnel', async () => {
    const b = await book(6);
    const now = new Date(new Date(b.inicio_em).getTime() + 366 * 24 * 3600 * 1000);
    const before = (
      await ctx.app.inject({ url: '/admin/aulas-experimentais/funil.csv?unidade_id=6', headers: { cookie: admin } })
    ).body;
    const [r1, r2] = await Promise.all([ctx.app.retentionJob.run(now), second.app.retentionJob.run(now)]);
    expect(r1.bookings + r2.bookings).toBeGreaterThanOrEqual(1);
    const row = await ctx.db
      .selectFrom('aulas_experimentais')
      .selectAll()
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ nome: 'Pessoa anonimizada', whatsapp: null, email: null });
    expect(row.anonimizado_em).toBe(now.toISOString());
    expect((await ctx.app.retentionJob.run(now)).bookings).toBe(0);
    // A class 11 months ago is kept.
    const recent = await book(6, { slotIndex: 1 });
    await ctx.app.retentionJob.run(new Date(new Date(recent.inicio_em).getTime() + 330 * 24 * 3600 * 1000));
    expect(
      (
        await ctx.db
          .selectFrom('aulas_experimentais')
          .select('nome')
          .where('id', '=', recent.id)
          .executeTakeFirstOrThrow()
      ).nome,
    ).toBe(recent.nome);
    const after = (
      await ctx.app.inject({ url: '/admin/aulas-experimentais/funil.csv?unidade_id=6', headers: { cookie: admin } })
    ).body;
    expect(after.split('\r\n').slice(1).join('\n')).toContain(
      before.split('\r\n')[1]!.split(';').slice(0, 2).join(';'),
    );
  });
});
