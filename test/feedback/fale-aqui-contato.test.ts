// The free message's contact: optional e-mail and phone, agreement required with either,
// stored with the message; ?unidade=ID preselects the unit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm } from '../helpers/http';

const FORM = '/NPS/nps_app_php/fale_aqui.php';
const POST = '/NPS/nps_app_php/salvar_fale_aqui.php';

let t: TestContext;
let unit: { id: number; nome: string };
let ip = 0;

beforeAll(async () => {
  t = await createTestApp();
  unit = await t.db
    .selectFrom('unidades')
    .select(['id', 'nome'])
    .where('ativo', '=', 1)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
});
afterAll(async () => t?.close());

async function send(fields: Record<string, string>, accept?: string) {
  const { token, cookie } = await fetchForm(t.app, FORM, '_token');
  const fd = new FormData();
  for (const [k, v] of Object.entries({ _token: token, ...fields })) fd.append(k, v);
  const res = new Response(fd);
  return t.app.inject({
    method: 'POST',
    url: POST,
    remoteAddress: `10.77.0.${++ip}`,
    headers: { cookie, 'content-type': res.headers.get('content-type')!, ...(accept ? { accept } : {}) },
    payload: Buffer.from(await res.arrayBuffer()),
  });
}

const count = async () =>
  Number(
    (
      await t.db
        .selectFrom('fale_aqui')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const last = () => t.db.selectFrom('fale_aqui').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();

describe('free-message contact', () => {
  it('preselects the unit from ?unidade=ID (and the older ?unidade_id=ID); a bad id selects nothing', async () => {
    for (const q of [`unidade=${unit.id}`, `unidade_id=${unit.id}`]) {
      const res = await t.app.inject(`${FORM}?${q}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toMatch(new RegExp(`<option value="${unit.id}"[^>]*selected`));
    }
    const bad = await t.app.inject(`${FORM}?unidade=abc`);
    expect(bad.statusCode).toBe(200);
    expect(bad.body).not.toMatch(/<option value="\d+"[^>]*selected/);
  });

  it('stores e-mail, phone (+55) and the agreement with the message', async () => {
    const res = await send({
      unidade_id: String(unit.id),
      mensagem: 'O ar-condicionado da sala 2 pinga.',
      contato_email: '  Bia@Exemplo.com.br ',
      contato_telefone: '(11) 98765-4321',
      aceite_contato: 'sim',
    });
    expect(res.statusCode).toBe(303);
    expect(await last()).toMatchObject({
      unidade_id: unit.id,
      unidade: unit.nome,
      contato_email: 'bia@exemplo.com.br',
      contato_telefone: '+5511987654321',
      aceite_contato: 1,
    });
  });

  it('stores a message without any contact (agreement not needed)', async () => {
    expect((await send({ unidade_id: String(unit.id), mensagem: 'Só um elogio.' })).statusCode).toBe(303);
    expect(await last()).toMatchObject({ contato_email: null, contato_telefone: null, aceite_contato: 0 });
  });

  it(`requires the agreement with a contact, and checks e-mail and phone: pt-BR messages, values kept, nothing \
stored`, async () => {
    const before = await count();
    const noAgreement = await send(
      { unidade_id: String(unit.id), mensagem: 'Oi', contato_telefone: '11987654321' },
      'application/json',
    );
    expect(noAgreement.statusCode).toBe(422);
    expect(noAgreement.json().errors).toEqual({
      aceite_contato: 'Para deixar um contato, marque que aceita ser contatado pela equipe.',
    });
    const bad = await send({
      unidade_id: String(unit.id),
      mensagem: 'Oi',
      contato_email: 'bia@',
      contato_telefone: '123',
      aceite_contato: 'sim',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Informe um e-mail válido');
    expect(bad.body).toContain('Informe um telefone brasileiro com DDD');
    expect(bad.body).toContain('value="bia@"');
    expect(bad.body).toMatch(/name="aceite_contato" value="sim" checked/);
    expect(await count()).toBe(before);
  });

  it('still accepts the free-text unit from old pages', async () => {
    expect((await send({ unidade: 'Unidade antiga', mensagem: 'Olá' })).statusCode).toBe(303);
    expect(await last()).toMatchObject({ unidade_id: null, unidade: 'Unidade antiga' });
  });
});
