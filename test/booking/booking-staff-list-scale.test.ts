// The trial-class bookings list at chain scale (decision 181): 300 units
// and thousands of bookings in the 22-day window. One day at a time (today by default), 50
// bookings a page in SQL, day links with counts that keep the filters, the status POST back
// to the same day and page, unit scope, and no 5xx on bad `dia` / `pagina`. Both engines.
import type { Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AulasExperimentaisTable } from '../../src/db/types';
import { seedLargeCatalog } from '../../src/db/seeds/large';
import { addDays, mondayOf, spDay, spInstant } from '../../src/features/booking/slots';
import { createTestApp, type TestContext } from '../helpers/app';
import { form } from '../helpers/http';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';

const LIST = '/admin/aulas-experimentais';

let t: TestContext;
let admin: string;
let manager: string;
let unitIds: number[];
/** the manager's units */
let mine: number[];
let today: string;
/** every seeded booking: id, unit, day, start */
const seeded: { id: number; unidade_id: number; dia: string; inicio_em: string }[] = [];
/** bookings per day in the window (150 a day: 3 pages for an admin) */
const PER_DAY = 150;

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  ({ unitIds } = await seedLargeCatalog(t.db, { units: 300 }));
  mine = unitIds.filter((_, i) => i % 30 === 0); // 10 units
  today = spDay(new Date());
  const now = new Date().toISOString();
  const rows: Insertable<AulasExperimentaisTable>[] = [];
  // the window (14 days back, 7 ahead) and one day outside each end, which no count may include
  for (let offset = -15; offset <= 8; offset++) {
    const dia = addDays(today, offset);
    for (let j = 0; j < PER_DAY; j++) {
      const unidade_id = unitIds[(j * 7 + offset + 15) % unitIds.length]!;
      const hhmm = `${String(6 + (j % 16)).padStart(2, '0')}:${j % 2 ? '30' : '00'}`;
      const start = spInstant(dia, hhmm);
      const tag = `${offset}-${j}`;
      rows.push({
        unidade_id,
        aula_id: null,
        vaga: `livre:${dia}:${hhmm}:${j}`,
        atividade: 'Treino livre',
        inicio_em: start.toISOString(),
        fim_em: new Date(start.getTime() + 3600_000).toISOString(),
        dia,
        nome: `Visitante ${tag}`,
        whatsapp: `+55119${String(80000000 + j)}`,
        email: `visitante.${tag}@exemplo.com.br`,
        aceita_contato: 1,
        envio_id: `escala-envio-${tag}`,
        codigo: `escala-codigo-${tag}`,
        status: 'agendado',
        status_por: null,
        lembrete_em: null,
        anonimizado_em: null,
        semana: mondayOf(dia),
        criado_em: now,
        atualizado_em: now,
      });
    }
  }
  for (let i = 0; i < rows.length; i += 200) {
    const ids = await t.db
      .insertInto('aulas_experimentais')
      .values(rows.slice(i, i + 200))
      .returning('id')
      .execute();
    ids.forEach((r, k) =>
      seeded.push({
        id: r.id,
        unidade_id: rows[i + k]!.unidade_id,
        dia: rows[i + k]!.dia,
        inicio_em: rows[i + k]!.inicio_em,
      }),
    );
  }
  const a = await createStaffUser(t.db, { papel: 'admin', nome: 'Ana Administradora' });
  const m = await createStaffUser(t.db, { papel: 'gerente', nome: 'Gerente Regional', unidadeIds: mine });
  admin = await loginAs(t.app, a.email, a.password);
  manager = await loginAs(t.app, m.email, m.password);
});
afterAll(async () => t?.close());

const get = (url: string, cookie = admin) => t.app.inject({ url, headers: { cookie } });
/** The booking ids listed on a page, in order. */
const shownIds = (html: string) => [...html.matchAll(/<li id="agendamento-(\d+)"/g)].map((m) => Number(m[1]));
/** The day links: day → its href (entities decoded) and the count it shows. */
function dayLinks(html: string) {
  const nav = html.slice(
    html.indexOf('<nav aria-label="Dias"'),
    html.indexOf('</nav>', html.indexOf('<nav aria-label="Dias"')),
  );
  const links = new Map<string, { href: string; count: number; current: boolean }>();
  for (const m of nav.matchAll(
    /<a href="([^"]+)"( aria-current="page")?>[^<]*(?:<!-- -->[^<]*)*<span class="badge">(\d+)/g,
  )) {
    const href = m[1]!.replace(/&amp;/g, '&');
    links.set(new URL(href, 'http://x').searchParams.get('dia')!, { href, count: Number(m[3]), current: !!m[2] });
  }
  return links;
}
const windowDays = () => Array.from({ length: 22 }, (_, i) => addDays(today, i - 14));
const countOf = (day: string, units?: number[]) =>
  seeded.filter((b) => b.dia === day && (!units || units.includes(b.unidade_id))).length;
/** The seeded bookings of a day for some units, in the list's order (start time, then id). */
const dayOrder = (day: string, units?: number[]) =>
  seeded
    .filter((b) => b.dia === day && (!units || units.includes(b.unidade_id)))
    .sort((a, b) => a.inicio_em.localeCompare(b.inicio_em) || a.id - b.id)
    .map((b) => b.id);

async function postStatus(cookie: string, id: number, voltar: string, status = 'compareceu') {
  return t.app.inject({
    method: 'POST',
    url: `${LIST}/${id}/status`,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ csrf_token: await staffToken(t.app, cookie, LIST), status, voltar }),
  });
}

describe('bookings list at 300 units and 3,600 bookings', () => {
  it("shows today's bookings only, 50 by start time, with a pager, in bounded bytes", async () => {
    const res = await get(LIST);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    expect(shownIds(res.body)).toEqual(dayOrder(today).slice(0, 50));
    expect(res.body).toContain('Página 1 de 3');
    expect(res.body).toContain(`href="${LIST}?dia=${today}&amp;pagina=2"`);
    expect(res.body).toContain('150 agendamentos');
    // Every booking of the window on one page was ~4.4 MB here. One page is 50 bookings of
    // ~1.3 KB (WhatsApp link with its message, three status buttons) plus the 16 KB unit
    // select: ~93 KB, whatever the window holds (decision 181).
    expect(res.body.length).toBeLessThan(100_000);

    const last = await get(`${LIST}?dia=${today}&pagina=3`);
    expect(shownIds(last.body)).toEqual(dayOrder(today).slice(100));
    expect(last.body).toContain('Esta página mostra do 101º ao 150º');
  });

  it('links every day of the window, today first, with its count from the same scope and filters', async () => {
    const links = dayLinks((await get(LIST)).body);
    const order = [
      today,
      ...windowDays().filter((d) => d > today),
      ...windowDays()
        .filter((d) => d < today)
        .reverse(),
    ];
    expect([...links.keys()]).toEqual(order);
    for (const d of order) expect(links.get(d), d).toMatchObject({ href: `${LIST}?dia=${d}`, count: PER_DAY });
    expect(links.get(today)!.current).toBe(true);

    // one unit: the links keep it and count that unit's bookings only
    const unit = unitIds[3]!;
    const one = dayLinks((await get(`${LIST}?unidade_id=${unit}&dia=${addDays(today, -2)}`)).body);
    for (const d of order)
      expect(one.get(d), d).toEqual({
        href: `${LIST}?unidade_id=${unit}&dia=${d}`,
        count: countOf(d, [unit]),
        current: d === addDays(today, -2),
      });

    // the text filter on the unit's name or city: kept too, and counted in the same units
    const recife = (await t.db.selectFrom('unidades').select('id').where('cidade', '=', 'Recife').execute()).map(
      (u) => u.id,
    );
    const page = await get(`${LIST}?q=recife&dia=${addDays(today, 3)}`);
    const byCity = dayLinks(page.body);
    for (const d of order)
      expect(byCity.get(d), d).toMatchObject({ href: `${LIST}?dia=${d}&q=recife`, count: countOf(d, recife) });
    expect(shownIds(page.body)).toEqual(dayOrder(addDays(today, 3), recife).slice(0, 50));
  });

  it('the status POST from page 2 of a past day comes back to that day and page, with the filters', async () => {
    const day = addDays(today, -5);
    const url = `${LIST}?dia=${day}&q=movimento&pagina=2`;
    const page = await get(url);
    expect(page.body).toContain('Página 2 de 3');
    const ids = shownIds(page.body);
    expect(ids).toEqual(dayOrder(day).slice(50, 100));
    expect(page.body).toContain(`href="${LIST}?dia=${day}&amp;q=movimento&amp;pagina=3"`);
    expect(page.body).toContain(`href="${LIST}?dia=${day}&amp;q=movimento"`); // page 1
    const voltar = /<input type="hidden" name="voltar" value="([^"]+)"/.exec(page.body)![1]!.replace(/&amp;/g, '&');
    expect(voltar).toBe(url);

    const res = await postStatus(admin, ids[7]!, voltar, 'matriculou');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${url}&salvo=${ids[7]}#agendamento-${ids[7]}`);
    const back = await get(res.headers.location as string);
    expect(shownIds(back.body)).toEqual(ids);
    expect(back.body).toContain('Situação do agendamento atualizada.');
    expect(back.body).toMatch(
      new RegExp(`id="agendamento-${ids[7]}">.*?<span class="badge status-matriculou">Matriculou</span>`),
    );

    // with a unit: the return keeps it
    const unit = seeded.find((b) => b.id === ids[0])!.unidade_id;
    const withUnit = `${LIST}?unidade_id=${unit}&dia=${day}`;
    expect((await postStatus(admin, ids[0]!, withUnit)).headers.location).toBe(
      `${withUnit}&salvo=${ids[0]}#agendamento-${ids[0]}`,
    );
    // the return address is rebuilt from checked values, never taken as posted
    for (const [voltar, location] of [
      ['https://mal.example/admin/aulas-experimentais', LIST],
      [`${LIST}/../../fora`, LIST],
      [`${LIST}?dia=ontem&pagina=-3&unidade_id=x&q=${'a'.repeat(101)}`, LIST],
      [`${LIST}?dia=${day}&pagina=2&extra=1`, `${LIST}?dia=${day}&pagina=2`],
    ] as const) {
      expect((await postStatus(admin, ids[1]!, voltar)).headers.location, voltar).toBe(
        `${location}${location.includes('?') ? '&' : '?'}salvo=${ids[1]}#agendamento-${ids[1]}`,
      );
    }
  });

  it('a unit manager sees only their units in the counts and the rows, and changes only theirs', async () => {
    const res = await get(LIST, manager);
    expect(res.statusCode).toBe(200);
    const links = dayLinks(res.body);
    for (const d of windowDays()) expect(links.get(d)?.count, d).toBe(countOf(d, mine));
    expect(shownIds(res.body)).toEqual(dayOrder(today, mine).slice(0, 50));
    const day = addDays(today, -1);
    const theirs = shownIds((await get(`${LIST}?dia=${day}`, manager)).body);
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs).toEqual(dayOrder(day, mine).slice(0, 50));
    // the text filter cannot widen the scope
    const sp = dayLinks((await get(`${LIST}?q=movimento`, manager)).body);
    for (const d of windowDays()) expect(sp.get(d)?.count, d).toBe(countOf(d, mine));

    const other = unitIds.find((id) => !mine.includes(id))!;
    expect((await get(`${LIST}?unidade_id=${other}`, manager)).statusCode).toBe(403);
    const foreign = seeded.find((b) => b.dia === today && !mine.includes(b.unidade_id))!;
    expect((await postStatus(manager, foreign.id, LIST)).statusCode).toBe(403);
    const own = seeded.find((b) => b.dia === today && mine.includes(b.unidade_id))!;
    expect((await postStatus(manager, own.id, `${LIST}?dia=${today}`)).statusCode).toBe(303);
  });

  it(`a bad \`dia\` or \`pagina\` never answers 5xx: today instead, the nearest day of the window, or the last \
page`, async () => {
    const first = addDays(today, -14);
    const last = addDays(today, 7);
    for (const [dia, shown, note] of [
      ['abc', today, 'Data inválida'],
      ['2026-02-30', today, 'Data inválida'],
      ['', today, null],
      [addDays(today, -15), first, 'A lista vai de 14 dias atrás a 7 dias à frente'],
      ['1999-01-01', first, 'A lista vai de 14 dias atrás'],
      [addDays(today, 8), last, 'A lista vai de 14 dias atrás'],
      ['9999-12-31', last, 'A lista vai de 14 dias atrás'],
    ] as const) {
      const res = await get(`${LIST}?dia=${encodeURIComponent(dia)}`);
      expect(res.statusCode, `dia=${dia}`).toBe(200);
      expect(dayLinks(res.body).get(shown)!.current, `dia=${dia}`).toBe(true);
      expect(shownIds(res.body), `dia=${dia}`).toEqual(dayOrder(shown).slice(0, 50));
      if (note) expect(res.body, `dia=${dia}`).toContain(note);
      else expect(res.body).not.toContain('role="status">Data inválida');
    }
    for (const [pagina, shown] of [
      ['0', 1],
      ['-1', 1],
      ['abc', 1],
      ['1.5', 1],
      ['99999', 3],
      ['', 1],
    ] as const) {
      const res = await get(`${LIST}?pagina=${pagina}`);
      expect(res.statusCode, `pagina=${pagina}`).toBe(200);
      expect(res.body).toContain(`Página ${shown} de 3`);
    }
    // longer than any day or page number: the query's schema answers 400, as on the other lists
    expect((await get(`${LIST}?dia=${'9'.repeat(21)}`)).statusCode).toBe(400);
    expect((await get(`${LIST}?pagina=${'9'.repeat(11)}`)).statusCode).toBe(400);
    expect((await get(`${LIST}?dia=${today}&dia=${today}`)).statusCode).toBeLessThan(500);
    expect((await get(`${LIST}?unidade_id=abc`)).statusCode).toBe(400);
  });
});
