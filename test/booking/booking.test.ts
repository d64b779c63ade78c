// Trial-class booking: the form, validation, idempotent submits, capacity under
// concurrency and the one-future-booking rule, on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { cookiesFrom, fetchForm, form } from '../helpers/http';
import { transactional } from '../../src/db/transactional';
import { createBookingRepository } from '../../src/features/booking/booking.repository';
import { createBookingService } from '../../src/features/booking/booking.service';
import { addDays, spDay, weekdayOf } from '../../src/features/booking/slots';
import { parseIcs } from '../../src/features/booking/ics';
import { awayFromWindowEnd } from '../helpers/rate-window';
import { BOOKING_RATE_LIMIT } from '../../src/features/booking/booking.routes';

let ctx: TestContext;
beforeAll(async () => {
  // SMTP "configured" so confirmations are queued; MAIL_WORKER=false (test default) never sends.
  ctx = await createTestApp({
    env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: '2', SMTP_SECURE: 'none', PUBLIC_URL: 'https://www.exemplo.com.br' },
  });
});
afterAll(async () => {
  await ctx?.close();
});

let addressCounter = 0;
/** Each POST from its own address, so the per-address rate limit never interferes. */
const nextAddress = () => `10.1.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

async function openForm(unit = 1) {
  const page = await fetchForm(ctx.app, `/aula-experimental?unidade=${unit}`);
  const envio = /name="envio_id" value="([^"]+)"/.exec(page.res.body)![1]!;
  return { ...page, envio };
}

async function post(unit: number, fields: Record<string, string>, page?: { token: string; cookie: string }) {
  const p = page ?? (await openForm(unit));
  return ctx.app.inject({
    method: 'POST',
    url: `/aula-experimental?unidade=${unit}`,
    remoteAddress: nextAddress(),
    headers: { cookie: p.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ csrf_token: p.token, ...fields }),
  });
}

let phoneSeq = 0;
const phone = () => `(11) 9${String(8000_0000 + ++phoneSeq).slice(0, 8)}`;
const envio = () => `teste-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;

/** A class of unit 1 at least two days ahead (surely in the future and in the window). */
async function futureClass(unit = 1, skip = 0) {
  const service = createBookingService({ config: ctx.config }, transactional(ctx.db, createBookingRepository));
  const u = (await service.activeUnit(unit))!;
  const days = await service.offeredDays(u, new Date());
  const slots = days.slice(2).flatMap((d) => d.slots.filter((s) => s.kind === 'aula'));
  return slots[skip]!;
}

const bookings = () => ctx.db.selectFrom('aulas_experimentais').selectAll().execute();

describe('the booking form', () => {
  it('lists the next 7 days with classes and free-training slots', async () => {
    const res = await ctx.app.inject({ url: '/aula-experimental?unidade=1' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Agende uma aula experimental');
    expect(res.body).toMatch(/name="envio_id" value="[A-Za-z0-9_-]{16,}"/);
    expect(res.body).toContain('Treino livre');
    expect(res.body.match(/class="booking-day"/g)).toHaveLength(7);
    const slot = await futureClass();
    expect(res.body).toContain(`value="${slot.value}"`);
    expect(res.headers['content-security-policy']).toBeTruthy();
  });

  it('refuses unknown, inactive and malformed units with a clear page', async () => {
    const inactive = await ctx.db.selectFrom('unidades').select('id').where('ativo', '=', 0).executeTakeFirstOrThrow();
    const res = await ctx.app.inject({ url: `/aula-experimental?unidade=${inactive.id}` });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('não está recebendo agendamentos');
    expect((await ctx.app.inject({ url: '/aula-experimental?unidade=abc' })).statusCode).toBe(400);
    expect((await ctx.app.inject({ url: '/aula-experimental?unidade=999999' })).statusCode).toBe(404);
  });

  it('without a unit: a chooser of the active units (nearest first with a location), never an error page', async () => {
    const res = await ctx.app.inject({ url: '/aula-experimental' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Em qual unidade você quer treinar?');
    const active = await ctx.db.selectFrom('unidades').select(['id', 'nome']).where('ativo', '=', 1).execute();
    const inactive = await ctx.db.selectFrom('unidades').select('id').where('ativo', '=', 0).executeTakeFirstOrThrow();
    for (const u of active) expect(res.body).toContain(`href="/aula-experimental?unidade=${u.id}"`);
    expect(res.body).not.toContain(`href="/aula-experimental?unidade=${inactive.id}"`);
    // the units-near-me script, its form sending the location to this page
    expect(res.body).toContain('src="/assets/near-me.js"');
    expect(res.body).toMatch(/<form method="get" action="\/aula-experimental" class="near-me" data-near-me/);
    expect(res.body).toContain('<link rel="canonical" href="https://www.exemplo.com.br/aula-experimental"/>');

    // Curitiba: Batel first, with its distance
    const near = await ctx.app.inject({ url: '/aula-experimental?lat=-25.44&lng=-49.28' });
    expect(near.statusCode).toBe(200);
    expect(near.body).toContain('Unidades mais perto primeiro');
    const links = [...near.body.matchAll(/href="\/aula-experimental\?unidade=(\d+)"/g)].map((m) => Number(m[1]));
    const batel = active.find((u) => u.nome === 'Movimento Batel')!;
    expect(links[0]).toBe(batel.id);
    expect(links).toHaveLength(active.length);
    expect(near.body).toMatch(/a (menos de 1|\d+,\d) km/);

    // a location that is not one: the list by name, a pt-BR message, no 5xx
    const bad = await ctx.app.inject({ url: '/aula-experimental?lat=abc&lng=1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Não foi possível usar essa localização.');
    expect(bad.body).toContain(`href="/aula-experimental?unidade=${batel.id}"`);
  });

  it('a class of an inactive unit is refused, nothing stored', async () => {
    const inactive = await ctx.db.selectFrom('unidades').select('id').where('ativo', '=', 0).executeTakeFirstOrThrow();
    const aula = await ctx.db
      .selectFrom('aulas')
      .select(['id', 'dia_semana'])
      .where('unidade_id', '=', inactive.id)
      .executeTakeFirst();
    const page = await openForm(1);
    const day = nextDayWithWeekday(aula?.dia_semana ?? 1);
    const res = await post(
      inactive.id,
      {
        envio_id: envio(),
        nome: 'Ana',
        whatsapp: phone(),
        aceita_contato: 'sim',
        vaga: `aula:${aula?.id ?? 1}:${day}`,
      },
      page,
    );
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('não está recebendo agendamentos');
    expect(await bookings()).toHaveLength(0);
  });

  it('bad input: 422, the form with values kept and a pt-BR message per field, nothing stored', async () => {
    const res = await post(1, { envio_id: envio(), nome: 'Zé <b>', whatsapp: '1234', email: 'nao-é-email', vaga: '' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('value="Zé &lt;b>"');
    expect(res.body).toContain('value="1234"');
    expect(res.body).toContain('Informe um número brasileiro com DDD');
    expect(res.body).toContain('Informe um e-mail válido');
    expect(res.body).toContain('Escolha o dia e o horário da sua aula.');
    expect(res.body).toContain('autorize a unidade a falar com você');
    expect(await bookings()).toHaveLength(0);
    const page = await openForm();
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/aula-experimental?unidade=1',
      remoteAddress: nextAddress(),
      headers: { accept: 'application/json', cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: page.token, envio_id: page.envio, nome: '' }),
    });
    expect(json.statusCode).toBe(422);
    expect(Object.keys(json.json().errors).sort()).toEqual(['aceita_contato', 'nome', 'vaga', 'whatsapp']);
    expect(json.json()).toMatchObject({
      error: 'Dados inválidos',
      message: expect.stringContaining('Nada foi gravado'),
    });
    // Without the CSRF token: 403, nothing stored.
    const noToken = await ctx.app.inject({
      method: 'POST',
      url: '/aula-experimental?unidade=1',
      remoteAddress: nextAddress(),
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ envio_id: page.envio, nome: 'X' }),
    });
    expect(noToken.statusCode).toBe(403);
  });

  it(`NUL, CR, LF and other control characters in nome, email or whatsapp: 422 with a field message, nothing \
stored`, async () => {
    const slot = await futureClass();
    const good = {
      nome: 'Maria Souza',
      whatsapp: phone(),
      email: 'maria@example.com',
      aceita_contato: 'sim',
      vaga: slot.value,
    };
    const cases: [field: 'nome' | 'email' | 'whatsapp', value: string, message: string][] = [
      ['nome', 'Maria\u0000Souza', 'caractere inválido (NUL)'],
      ['nome', 'Maria\r\nSouza', 'Use uma linha só'],
      ['nome', 'Maria\nSouza', 'Use uma linha só'],
      ['nome', 'Maria\u0007Souza', 'Use uma linha só'],
      ['email', 'maria@example.com\u0000', 'caractere inválido (NUL)'],
      ['email', 'maria@example.com\r\nBcc: x@y.com', 'Use uma linha só'],
      ['whatsapp', '(11) 98765\u0000-4321', 'caractere inválido (NUL)'],
      ['whatsapp', '(11) 98765\n-4321', 'Use uma linha só'],
      ['whatsapp', '(11) 98765\r-4321', 'Use uma linha só'],
      ['whatsapp', '(11)\u001b98765-4321', 'Use uma linha só'],
    ];
    for (const [field, value, message] of cases) {
      const page = await openForm();
      const json = await ctx.app.inject({
        method: 'POST',
        url: '/aula-experimental?unidade=1',
        remoteAddress: nextAddress(),
        headers: {
          accept: 'application/json',
          cookie: page.cookie,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: form({ csrf_token: page.token, envio_id: page.envio, ...good, [field]: value }),
      });
      expect(json.statusCode, `${field}: ${JSON.stringify(value)}`).toBe(422);
      expect(Object.keys(json.json().errors), `${field}: ${JSON.stringify(value)}`).toEqual([field]);
      expect(json.json().errors[field]).toContain(message);
      // The HTML form: 422, the message, and the value shown back without the control characters.
      const html = await post(1, { envio_id: envio(), ...good, [field]: value });
      expect(html.statusCode).toBe(422);
      expect(html.body).toContain(message);
      expect(html.body).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    }
    expect(await bookings()).toHaveLength(0);
  });

  it(`a class in the past, outside the timetable or outside opening hours is refused with a clear \
message`, async () => {
    const slot = await futureClass();
    const yesterday = addDays(spDay(new Date()), -1);
    const base = { nome: 'Paula', whatsapp: phone(), aceita_contato: 'sim' };
    let res = await post(1, { ...base, envio_id: envio(), vaga: `aula:${slot.aulaId}:${yesterday}` });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Este horário já passou');
    // The same class on a day of the week it does not happen.
    const wrongDay = addDays(slot.day, -1);
    res = await post(1, { ...base, envio_id: envio(), vaga: `aula:${slot.aulaId}:${wrongDay}` });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('não está na grade da unidade');
    // Another unit's class.
    const other = await ctx.db
      .selectFrom('aulas')
      .select(['id', 'dia_semana'])
      .where('unidade_id', '=', 2)
      .executeTakeFirstOrThrow();
    res = await post(1, {
      ...base,
      envio_id: envio(),
      vaga: `aula:${other.id}:${nextDayWithWeekday(other.dia_semana)}`,
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('não está na grade da unidade');
    res = await post(1, { ...base, envio_id: envio(), vaga: `livre:${slot.day}:03:00` });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('não está aberta nesse horário');
    res = await post(1, { ...base, envio_id: envio(), vaga: `aula:${slot.aulaId}:${addDays(spDay(new Date()), 9)}` });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('próximos 7 dias');
    res = await post(1, { ...base, envio_id: envio(), vaga: 'aula:1:2026-02-31' });
    expect(res.statusCode).toBe(422);
    expect(await bookings()).toHaveLength(0);
  });

  it('a class that already began is refused (injected clock)', async () => {
    const service = createBookingService({ config: ctx.config }, transactional(ctx.db, createBookingRepository));
    const slot = await futureClass();
    const unit = (await service.activeUnit(1))!;
    const during = new Date(slot.startsAt.getTime() + 5 * 60_000);
    const out = await service.book(
      1,
      { envio_id: envio(), nome: 'Rita', whatsapp: phone(), aceita_contato: 'sim', vaga: slot.value },
      during,
    );
    expect(out).toEqual({ kind: 'invalid', errors: { vaga: 'Esta aula já começou. Escolha outro horário da lista.' } });
    const offered = (await service.offeredDays(unit, during)).flatMap((d) => d.slots.map((s) => s.value));
    expect(offered).not.toContain(slot.value);
    expect(await bookings()).toHaveLength(0);
  });
});

describe('booking', () => {
  it(`books, redirects to a thanks page with address, map, WhatsApp and a valid .ics, and queues the \
confirmation`, async () => {
    const slot = await futureClass(1, 0);
    const page = await openForm();
    const res = await post(
      1,
      {
        envio_id: page.envio,
        nome: 'Joana Dias; Silva, "JD"',
        whatsapp: '11 98888-7777',
        email: 'joana@example.com',
        aceita_contato: 'sim',
        vaga: slot.value,
      },
      page,
    );
    expect(res.statusCode).toBe(303);
    const location = res.headers.location as string;
    expect(location).toMatch(/^\/aula-experimental\/confirmada\/[A-Za-z0-9_-]{20,}$/);
    const rows = await bookings();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      whatsapp: '+5511988887777',
      email: 'joana@example.com',
      status: 'agendado',
      atividade: slot.atividade,
      dia: slot.day,
      unidade_id: 1,
    });
    expect(rows[0]!.inicio_em).toBe(slot.startsAt.toISOString());

    const thanks = await ctx.app.inject({ url: location });
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toContain('Aula experimental agendada!');
    expect(thanks.body).toContain(slot.atividade);
    expect(thanks.body).toContain('Rua dos Pinheiros, 1200');
    expect(thanks.body).toContain('https://www.google.com/maps/search/?api=1&amp;query=');
    expect(thanks.body).toContain('https://wa.me/5511987451200?text=');
    expect(thanks.body).not.toContain('Joana');

    const ics = await ctx.app.inject({ url: `${location}/agenda.ics` });
    expect(ics.statusCode).toBe(200);
    expect(ics.headers['content-type']).toMatch(/^text\/calendar/);
    const text = ics.body;
    expect(text.endsWith('\r\n')).toBe(true);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/\n/);
    const props = parseIcs(text);
    const get = (n: string) => props.find((p) => p.name === n)?.value;
    expect(get('BEGIN')).toBe('VCALENDAR');
    expect(get('VERSION')).toBe('2.0');
    expect(get('DTSTART')).toBe(slot.startsAt.toISOString().replace(/[-:]/g, '').replace('.000', ''));
    expect(get('DTEND')).toBe(slot.endsAt.toISOString().replace(/[-:]/g, '').replace('.000', ''));
    expect(get('LOCATION')).toBe('Rua dos Pinheiros, 1200, Pinheiros, São Paulo - SP');
    expect(get('SUMMARY')).toContain(slot.atividade);
    expect(get('UID')).toMatch(/@www\.exemplo\.com\.br$/);
    expect(text).toContain('LOCATION:Rua dos Pinheiros\\, 1200\\, Pinheiros\\, São Paulo - SP');

    const mail = await ctx.db.selectFrom('fila_emails').selectAll().execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.destinatario).toBe('joana@example.com');
    expect(mail[0]!.texto).toContain(slot.atividade);
    expect(mail[0]!.texto).toContain(`https://www.exemplo.com.br${location}`);
    expect(mail[0]!.origem).toBe(`aulas_experimentais:${rows[0]!.id}:confirmacao`);
  });

  it('a double submit books once and answers exactly as the first (sequential and concurrent)', async () => {
    const slot = await futureClass(1, 1);
    const page = await openForm();
    const fields = { envio_id: page.envio, nome: 'Marcos', whatsapp: phone(), aceita_contato: 'sim', vaga: slot.value };
    const before = (await bookings()).length;
    const first = await post(1, fields, page);
    const second = await post(1, fields, page);
    expect(first.statusCode).toBe(303);
    expect(second.statusCode).toBe(303);
    expect(second.headers.location).toBe(first.headers.location);
    expect(await bookings()).toHaveLength(before + 1);

    const page2 = await openForm();
    const fields2 = { ...fields, envio_id: page2.envio, whatsapp: phone(), vaga: (await futureClass(1, 2)).value };
    const both = await Promise.all([post(1, fields2, page2), post(1, fields2, page2), post(1, fields2, page2)]);
    expect(both.map((r) => r.statusCode)).toEqual([303, 303, 303]);
    expect(new Set(both.map((r) => r.headers.location)).size).toBe(1);
    expect(await bookings()).toHaveLength(before + 2);
  });

  it('the same WhatsApp cannot hold two future bookings at one unit (but can at another)', async () => {
    const number = phone();
    const a = await post(1, {
      envio_id: envio(),
      nome: 'Lia',
      whatsapp: number,
      aceita_contato: 'sim',
      vaga: (await futureClass(1, 3)).value,
    });
    expect(a.statusCode).toBe(303);
    const b = await post(1, {
      envio_id: envio(),
      nome: 'Lia',
      whatsapp: number,
      aceita_contato: 'sim',
      vaga: (await futureClass(1, 4)).value,
    });
    expect(b.statusCode).toBe(422);
    expect(b.body).toContain('Este WhatsApp já tem uma aula experimental agendada nesta unidade');
    const c = await post(2, {
      envio_id: envio(),
      nome: 'Lia',
      whatsapp: number,
      aceita_contato: 'sim',
      vaga: (await futureClass(2, 0)).value,
    });
    expect(c.statusCode).toBe(303);
  });
});

describe('capacity under concurrency', () => {
  it(`20 concurrent bookings for a class with 3 places store exactly 3; the others get the form back with other \
slots`, async () => {
    const slot = await futureClass(1, 5);
    const page = await openForm();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(
          1,
          { envio_id: envio(), nome: `Pessoa ${i}`, whatsapp: phone(), aceita_contato: 'sim', vaga: slot.value },
          page,
        ),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 303)).toHaveLength(3);
    expect(codes.filter((c) => c === 409)).toHaveLength(17);
    const stored = await ctx.db.selectFrom('aulas_experimentais').select('id').where('vaga', '=', slot.value).execute();
    expect(stored).toHaveLength(3);
    const counter = await ctx.db
      .selectFrom('aulas_experimentais_vagas')
      .select('reservados')
      .where('vaga', '=', slot.value)
      .executeTakeFirstOrThrow();
    expect(counter.reservados).toBe(3);
    const loser = results.find((r) => r.statusCode === 409)!;
    expect(loser.body).toContain('as vagas deste horário acabaram de ser preenchidas');
    expect(loser.body).not.toContain(`value="${slot.value}"`);
    expect(loser.body).toContain('Treino livre');
    // A JSON client gets the same refusal with the documented keys.
    const page2 = await openForm();
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/aula-experimental?unidade=1',
      remoteAddress: nextAddress(),
      headers: {
        accept: 'application/json',
        cookie: page2.cookie,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: form({
        csrf_token: page2.token,
        envio_id: envio(),
        nome: 'Pessoa JSON',
        whatsapp: phone(),
        aceita_contato: 'sim',
        vaga: slot.value,
      }),
    });
    expect(json.statusCode).toBe(409);
    expect(json.json()).toEqual({
      error: 'Horário sem vagas',
      message: expect.stringContaining('Nada foi agendado'),
      errors: { vaga: expect.stringContaining('acabaram de ser preenchidas') },
    });
    // A later visitor no longer sees the full class.
    const form2 = await ctx.app.inject({ url: '/aula-experimental?unidade=1' });
    expect(form2.body).not.toContain(`value="${slot.value}"`);
  });

  it('a unit with 1 place per class: 10 concurrent bookings store 1', async () => {
    await ctx.db
      .updateTable('unidades')
      .set({ vagas_experimentais: 1 } as never)
      .where('id', '=', 3)
      .execute();
    const slot = await futureClass(3, 0);
    const page = await openForm(3);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(
          3,
          { envio_id: envio(), nome: `Pessoa ${i}`, whatsapp: phone(), aceita_contato: 'sim', vaga: slot.value },
          page,
        ),
      ),
    );
    expect(results.filter((r) => r.statusCode === 303)).toHaveLength(1);
    const stored = await ctx.db
      .selectFrom('aulas_experimentais')
      .select('id')
      .where('vaga', '=', slot.value)
      .where('unidade_id', '=', 3)
      .execute();
    expect(stored).toHaveLength(1);
  });
});

function nextDayWithWeekday(weekday: number): string {
  // Within the bookable window (today and the next six days).
  let day = addDays(spDay(new Date()), 0);
  while (weekdayOf(day) !== weekday) day = addDays(day, 1);
  return day;
}

void cookiesFrom;

describe('calendar file and slots (pure)', () => {
  it('folds long lines at 75 octets without splitting UTF-8 characters, and escapes text', async () => {
    const { buildIcs, foldLine } = await import('../../src/features/booking/ics');
    const long = `DESCRIPTION:${'Musculação, avaliação; ação\\ '.repeat(12)}`;
    const folded = foldLine(long);
    for (const l of folded.split('\r\n')) expect(Buffer.byteLength(l)).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, '')).toBe(long);
    const ics = buildIcs(
      {
        uid: 'x@y',
        start: new Date('2026-11-24T10:00:00Z'),
        end: new Date('2026-11-24T11:00:00Z'),
        stamp: new Date('2026-11-23T10:00:00Z'),
        summary: 'A, b; c\\d\ne',
        location: 'L',
        description: 'D',
      },
      '-//T//PT-BR',
    );
    const summary = parseIcs(ics).find((p) => p.name === 'SUMMARY')!;
    expect(summary.value).toBe('A, b; c\\d\ne');
    expect(ics).toContain('SUMMARY:A\\, b\\; c\\\\d\\ne\r\n');
    expect(ics).toContain('DTSTART:20261124T100000Z\r\n');
  });

  it('free-training slots fit the opening hours, including hours past midnight', async () => {
    const { slotsOfDay } = await import('../../src/features/booking/slots');
    const day = '2026-11-27'; // a Friday
    const slots = slotsOfDay(
      day,
      [],
      [
        { dia_semana: 5, abre: '05:30', fecha: '08:00' },
        { dia_semana: 5, abre: '22:00', fecha: '02:00' },
      ],
    );
    expect(slots.map((s) => s.inicio)).toEqual(['06:00', '07:00', '22:00', '23:00']);
    const last = slots.at(-1)!;
    expect(last.endsAt.toISOString()).toBe('2026-11-28T03:00:00.000Z'); // 00:00 São Paulo, next day
    expect(slotsOfDay('2026-11-28', [], [{ dia_semana: 5, abre: '06:00', fecha: '22:00' }])).toEqual([]);
  });
});

describe('a POST without envio_id (old pages, scripts)', () => {
  it('is accepted, like on every public form', async () => {
    const slot = await futureClass(1, 6);
    const res = await post(1, { nome: 'Sem Envio', whatsapp: phone(), aceita_contato: 'sim', vaga: slot.value });
    expect(res.statusCode).toBe(303);
    const row = await ctx.db
      .selectFrom('aulas_experimentais')
      .select('envio_id')
      .where('nome', '=', 'Sem Envio')
      .executeTakeFirstOrThrow();
    expect(row.envio_id).toMatch(/^sem-envio-/);
  });
});

describe('rate limit', () => {
  it('at most 30 POSTs per address in 10 minutes, then 429 with Retry-After', async () => {
    await awayFromWindowEnd(BOOKING_RATE_LIMIT.timeWindow);
    const page = await openForm();
    const send = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/aula-experimental?unidade=1',
        remoteAddress: '10.99.0.1',
        headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ csrf_token: page.token, nome: '' }),
      });
    for (let i = 0; i < 30; i++) expect((await send()).statusCode).toBe(422);
    const limited = await send();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeTruthy();
  });
});
