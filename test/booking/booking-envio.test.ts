// The trial-class booking follows the rule of the other public forms (docs/decisions/183,
// 184): a repeat is the same envio_id AND the same content, answered with the first
// booking's thanks page and storing nothing (no booking, consent row, webhook event or mail);
// another content under a used envio_id is a booking of its own, under the content key,
// with its own capacity check, consent, event and mail. Also under a race. Runs on SQLite and
// on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactional } from '../../src/db/transactional';
import { createBookingRepository } from '../../src/features/booking/booking.repository';
import {
  bookingFingerprint,
  createBookingService,
  type BookingValues,
} from '../../src/features/booking/booking.service';
import { contentKey, ENVIO_WINDOW_MS } from '../../src/platform/envio/index';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm, form } from '../helpers/http';

let t: TestContext;
beforeAll(async () => {
  // SMTP "configured" so confirmations are queued; neither worker sends anything.
  t = await createTestApp({
    env: {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: '2',
      SMTP_SECURE: 'none',
      WEBHOOKS_WORKER: 'false',
      PUBLIC_URL: 'https://www.exemplo.com.br',
    },
  });
  const now = new Date().toISOString();
  await t.db
    .insertInto('webhook_endpoints')
    .values({
      url: 'https://hooks.example.com/aulas',
      eventos: ',aula_experimental.agendada,',
      segredo: 'whsec_dGVzdGUtZGUtYWdlbmRhbWVudG8tMDAwMDAwMDA=',
      ativo: 1,
      falhando_desde: null,
      desativado_em: null,
      desativado_motivo: null,
      criado_em: now,
      atualizado_em: now,
    })
    .execute();
});
afterAll(async () => t?.close());

let address = 0;
const nextAddress = () => `10.7.${Math.floor(++address / 250)}.${address % 250}`;
let phoneSeq = 0;
const phone = () => `(11) 9${String(7000_0000 + ++phoneSeq).slice(0, 8)}`;
let keySeq = 0;
const newKey = () => `reserva-${++keySeq}-${Math.random().toString(36).slice(2, 10)}`;

const service = () => createBookingService({ config: t.config }, transactional(t.db, createBookingRepository));

/** Class slots of a unit from the third day on (surely in the future and in the window). */
async function classes(unit = 1) {
  const s = service();
  const days = await s.offeredDays((await s.activeUnit(unit))!, new Date());
  return days.slice(2).flatMap((d) => d.slots.filter((x) => x.kind === 'aula'));
}

const openForm = (unit: number) => fetchForm(t.app, `/aula-experimental?unidade=${unit}`);

async function post(unit: number, fields: Record<string, string>, opened?: Awaited<ReturnType<typeof openForm>>) {
  const page = opened ?? (await openForm(unit));
  return t.app.inject({
    method: 'POST',
    url: `/aula-experimental?unidade=${unit}`,
    remoteAddress: nextAddress(),
    headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ csrf_token: page.token, ...fields }),
  });
}

async function count(table: 'aulas_experimentais' | 'consentimentos' | 'webhook_entregas' | 'fila_emails') {
  const row = await t.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
/** Bookings, consent rows, webhook events and queued mails: what a booking writes. */
const written = async () =>
  Promise.all([count('aulas_experimentais'), count('consentimentos'), count('webhook_entregas'), count('fila_emails')]);
const plus = (base: number[], n: number) => base.map((v) => v + n);

const bookingsUnder = (key: string) =>
  t.db
    .selectFrom('aulas_experimentais')
    .select(['id', 'envio_id', 'nome', 'vaga', 'codigo'])
    .where('envio_id', 'like', `${key}%`)
    .orderBy('id')
    .execute();

describe('the booking form: a repeat is the same key and the same content', () => {
  it(`the same content again is the first booking's thanks page, nothing written; another content under the \
key is a booking of its own, and its exact repeat is recognised`, async () => {
    const [a, b] = await classes();
    const key = newKey();
    const first: Record<string, string> = {
      envio_id: key,
      nome: 'Joana Dias',
      whatsapp: phone(),
      email: 'joana@example.com',
      aceita_contato: 'sim',
      vaga: a!.value,
    };
    const base = await written();
    const one = await post(1, first);
    expect(one.statusCode).toBe(303);
    expect(await written()).toEqual(plus(base, 1));

    // A double click, a resend, the same text typed differently (spaces, phone format, e-mail case).
    const again = await post(1, first);
    const retyped = await post(1, {
      ...first,
      nome: '  Joana Dias ',
      whatsapp: `+55 ${first.whatsapp}`,
      email: 'JOANA@example.com',
    });
    for (const r of [again, retyped]) {
      expect(r.statusCode).toBe(303);
      expect(r.headers.location).toBe(one.headers.location);
    }
    expect(await written()).toEqual(plus(base, 1));

    // Back, another day/time and another person's name and number, the same envio_id: booked.
    const second = { ...first, nome: 'Pedro Dias', whatsapp: phone(), email: 'pedro@example.com', vaga: b!.value };
    const two = await post(1, second);
    expect(two.statusCode).toBe(303);
    expect(two.headers.location).not.toBe(one.headers.location);
    expect(await written()).toEqual(plus(base, 2));
    const fingerprint = bookingFingerprint(1, second as BookingValues)!;
    const rows = await bookingsUnder(key);
    expect(rows.map((r) => [r.envio_id, r.nome, r.vaga])).toEqual([
      [key, 'Joana Dias', a!.value],
      [contentKey(key, fingerprint), 'Pedro Dias', b!.value],
    ]);
    expect(two.headers.location).toBe(`/aula-experimental/confirmada/${rows[1]!.codigo}`);
    // Its own consent, webhook event and confirmation mail.
    const consent = await t.db
      .selectFrom('consentimentos')
      .select(['tabela', 'telefone'])
      .where('registro_id', '=', rows[1]!.id)
      .where('tabela', '=', 'aulas_experimentais')
      .execute();
    expect(consent).toHaveLength(1);
    const events = await t.db
      .selectFrom('webhook_entregas')
      .select('evento')
      .where('origem', '=', `aulas_experimentais:${rows[1]!.id}`)
      .execute();
    expect(events).toEqual([{ evento: 'aula_experimental.agendada' }]);
    const mail = await t.db
      .selectFrom('fila_emails')
      .select('destinatario')
      .where('origem', '=', `aulas_experimentais:${rows[1]!.id}:confirmacao`)
      .execute();
    expect(mail).toEqual([{ destinatario: 'pedro@example.com' }]);

    // Each content sent again finds its own booking.
    const twoAgain = await post(1, second);
    const oneAgain = await post(1, first);
    expect(twoAgain.headers.location).toBe(two.headers.location);
    expect(oneAgain.headers.location).toBe(one.headers.location);
    expect(await written()).toEqual(plus(base, 2));
    const envios = await t.db
      .selectFrom('envios')
      .select(['envio_id', 'registro_id'])
      .where('formulario', '=', 'aula_experimental')
      .where('envio_id', 'like', `${key}%`)
      .orderBy('envio_id')
      .execute();
    expect(envios).toEqual([
      { envio_id: key, registro_id: rows[0]!.id },
      { envio_id: contentKey(key, fingerprint), registro_id: rows[1]!.id },
    ]);
  });

  it(`another content under a used key still meets the booking rules: the same WhatsApp gets the \
one-future-booking message and nothing is written`, async () => {
    const [, , c, d] = await classes();
    const key = newKey();
    const fields = {
      envio_id: key,
      nome: 'Rita Lopes',
      whatsapp: phone(),
      email: 'rita@example.com',
      aceita_contato: 'sim',
      vaga: c!.value,
    };
    expect((await post(1, fields)).statusCode).toBe(303);
    const base = await written();
    const moved = await post(1, { ...fields, vaga: d!.value });
    expect(moved.statusCode).toBe(422);
    expect(moved.body).toContain('Este WhatsApp já tem uma aula experimental agendada nesta unidade');
    expect(await written()).toEqual(base);
    expect(await bookingsUnder(key)).toHaveLength(1);
  });

  it('a repeat is answered as the first time even once the class began (injected clock)', async () => {
    const [, , , , e] = await classes();
    const values: BookingValues = {
      envio_id: newKey(),
      nome: 'Caio Prado',
      whatsapp: phone(),
      email: 'caio@example.com',
      aceita_contato: 'sim',
      vaga: e!.value,
    };
    const first = await service().book(1, values);
    expect(first).toMatchObject({ kind: 'booked', repeated: false });
    const base = await written();
    const during = new Date(e!.startsAt.getTime() + 5 * 60_000);
    // Booked an hour before the class: its envios row is within the window then.
    await t.db
      .updateTable('envios')
      .set({ criado_em: new Date(e!.startsAt.getTime() - 60 * 60_000).toISOString() })
      .where('formulario', '=', 'aula_experimental')
      .where('envio_id', '=', values.envio_id!)
      .execute();
    const later = await service().book(1, values, during);
    expect(later).toMatchObject({ kind: 'booked', repeated: true });
    expect((later as { booking: { id: number } }).booking.id).toBe((first as { booking: { id: number } }).booking.id);
    // Another content under that key, then: the class has begun, the form says so.
    const other = await service().book(1, { ...values, nome: 'Caio Prado Jr', whatsapp: phone() }, during);
    expect(other).toEqual({
      kind: 'invalid',
      errors: { vaga: 'Esta aula já começou. Escolha outro horário da lista.' },
    });
    expect(await written()).toEqual(base);
  });

  it('a key whose envios row is past the 24 h window is a repeat for any content, as before', async () => {
    const [, , , , , f, g] = await classes();
    const key = newKey();
    const fields = {
      envio_id: key,
      nome: 'Bia Reis',
      whatsapp: phone(),
      email: 'bia@example.com',
      aceita_contato: 'sim',
      vaga: f!.value,
    };
    const first = await post(1, fields);
    expect(first.statusCode).toBe(303);
    const old = new Date(Date.now() - ENVIO_WINDOW_MS - 60_000).toISOString();
    await t.db
      .updateTable('envios')
      .set({ criado_em: old })
      .where('formulario', '=', 'aula_experimental')
      .where('envio_id', '=', key)
      .execute();
    const base = await written();
    const other = await post(1, { ...fields, nome: 'Outra Pessoa', whatsapp: phone(), vaga: g!.value });
    expect(other.statusCode).toBe(303);
    expect(other.headers.location).toBe(first.headers.location);
    // Pruned altogether: the booking's own UNIQUE envio_id still answers.
    await t.db.deleteFrom('envios').where('formulario', '=', 'aula_experimental').where('envio_id', '=', key).execute();
    const pruned = await post(1, { ...fields, nome: 'Mais Uma', whatsapp: phone(), vaga: g!.value });
    expect(pruned.headers.location).toBe(first.headers.location);
    expect(await written()).toEqual(base);
  });
});

describe('racing POSTs under one key', () => {
  it('two different contents posted at once store both; identical ones store one', async () => {
    const slots = await classes(2);
    const key = newKey();
    const a = {
      envio_id: key,
      nome: 'Luísa Melo',
      whatsapp: phone(),
      email: 'luisa@example.com',
      aceita_contato: 'sim',
      vaga: slots[0]!.value,
    };
    const b = { ...a, nome: 'Marcos Melo', whatsapp: phone(), email: 'marcos@example.com', vaga: slots[1]!.value };
    const base = await written();
    // The forms opened first, so the four POSTs reach the database together.
    const pages = await Promise.all([1, 2, 3, 4].map(() => openForm(2)));
    const results = await Promise.all([a, b, a, b].map((fields, i) => post(2, fields, pages[i])));
    expect(results.map((r) => r.statusCode)).toEqual([303, 303, 303, 303]);
    expect(results[2]!.headers.location).toBe(results[0]!.headers.location);
    expect(results[3]!.headers.location).toBe(results[1]!.headers.location);
    expect(results[0]!.headers.location).not.toBe(results[1]!.headers.location);
    expect(await written()).toEqual(plus(base, 2));
    const rows = await bookingsUnder(key);
    expect(rows.map((r) => r.nome).sort()).toEqual(['Luísa Melo', 'Marcos Melo']);
    // Whichever won the key, the other is under its content key.
    expect(rows.filter((r) => r.envio_id === key)).toHaveLength(1);
    const other = rows.find((r) => r.envio_id !== key)!;
    const content = (other.nome === a.nome ? a : b) as BookingValues;
    expect(other.envio_id).toBe(contentKey(key, bookingFingerprint(2, content)!));
  });

  it('each content has its own capacity check: one place left, two contents at once book one', async () => {
    await t.db
      .updateTable('unidades')
      .set({ vagas_experimentais: 1 } as never)
      .where('id', '=', 3)
      .execute();
    const [slot] = await classes(3);
    const key = newKey();
    const a = {
      envio_id: key,
      nome: 'Davi Costa',
      whatsapp: phone(),
      email: 'davi@example.com',
      aceita_contato: 'sim',
      vaga: slot!.value,
    };
    const b = { ...a, nome: 'Elis Costa', whatsapp: phone(), email: 'elis@example.com' };
    const base = await written();
    const pages = await Promise.all([openForm(3), openForm(3)]);
    const results = await Promise.all([post(3, a, pages[0]), post(3, b, pages[1])]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([303, 409]);
    expect(results.find((r) => r.statusCode === 409)!.body).toContain('as vagas deste horário acabaram');
    expect(await written()).toEqual(plus(base, 1));
    const counter = await t.db
      .selectFrom('aulas_experimentais_vagas')
      .select('reservados')
      .where('unidade_id', '=', 3)
      .where('vaga', '=', slot!.value)
      .executeTakeFirstOrThrow();
    expect(counter.reservados).toBe(1);
  });
});
