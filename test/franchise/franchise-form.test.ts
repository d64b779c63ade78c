import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm, form } from '../helpers/http';
import { OPTION_FIELDS, OPTION_FIELD_NAMES } from '../../src/features/franchise/options';
import { awayFromWindowEnd } from '../helpers/rate-window';
import { FORM_RATE_LIMIT } from '../../src/features/franchise/form.routes';

const URL = '/pages/Franquia/index.php';

const validLead = (over: Record<string, string | undefined> = {}) => ({
  nome_completo: 'Maria José da Conceição',
  whatsapp: '(11) 98765-4321',
  email: 'maria@example.com',
  cidade_regiao: 'Campinas - SP',
  investimento_parceria: 'sozinho',
  faixa_investimento: '300mil_500mil',
  prazo_proximo_passo: 'ate_3_meses',
  experiencia_negocio: 'empresario',
  motivo_interesse: 'ter_meu_negocio',
  aceita_contato: 'sim',
  ...over,
});

let t: TestContext;
let ip = 0;
// Each submission from its own address, so the per-address rate limit stays out of the way.
const nextIp = () => `10.50.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;

beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => t?.close());

async function submit(
  fields: Record<string, string | undefined>,
  opts: { json?: boolean; remoteAddress?: string; token?: string | null } = {},
) {
  const page = await fetchForm(t.app, URL);
  const token = opts.token === null ? undefined : (opts.token ?? page.token);
  return t.app.inject({
    method: 'POST',
    url: URL,
    remoteAddress: opts.remoteAddress ?? nextIp(),
    headers: {
      cookie: page.cookie,
      'content-type': 'application/x-www-form-urlencoded',
      ...(opts.json ? { accept: 'application/json' } : {}),
    },
    payload: form({ csrf_token: token, ...fields }),
  });
}

const count = async () =>
  Number(
    (
      await t.db
        .selectFrom('franquia_leads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('franchise form page', () => {
  it('explains the franchise and carries the 11 fields of the interface', async () => {
    const res = await t.app.inject(URL);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Seja um franqueado');
    for (const name of ['csrf_token', 'nome_completo', 'whatsapp', 'email', 'cidade_regiao', ...OPTION_FIELD_NAMES]) {
      expect(res.body).toContain(`name="${name}"`);
    }
    // Every option of every list is offered, with its pt-BR label.
    for (const f of OPTION_FIELD_NAMES) {
      if (f === 'aceita_contato') continue;
      for (const o of OPTION_FIELDS[f].options) expect(res.body).toContain(`value="${o.value}"`);
    }
    expect(res.body).toContain('value="sim"');
    expect(res.body).toContain('/assets/franchise-form.js');
    expect(res.body).not.toMatch(/<script(?![^>]*src=)[^>]*>[^<]/);
  });
});

describe('franchise form submission', () => {
  it('stores a valid lead, normalised, and answers 303 to the thank-you page', async () => {
    const res = await submit(validLead({ nome_completo: '  Maria José da Conceição ', email: ' maria@example.com ' }));
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/pages/Franquia/obrigado.php');
    const thanks = await t.app.inject(res.headers.location as string);
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toContain('Obrigado');
    const lead = await t.db.selectFrom('franquia_leads').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(lead).toMatchObject({
      nome_completo: 'Maria José da Conceição',
      whatsapp: '+5511987654321',
      email: 'maria@example.com',
      cidade_regiao: 'Campinas - SP',
      investimento_parceria: 'sozinho',
      aceita_contato: 'sim',
      status: 'novo',
    });
    expect(lead.busca).toContain('maria jose da conceicao');
    expect(lead.busca).toContain('campinas');
    const hist = await t.db.selectFrom('franquia_leads_historico').selectAll().where('lead_id', '=', lead.id).execute();
    expect(hist).toMatchObject([{ status_de: null, status_para: 'novo', usuario_id: null }]);
    // No mail configured: nothing queued.
    expect(await t.db.selectFrom('fila_emails').selectAll().execute()).toHaveLength(0);
  });

  it('accepts the WhatsApp number in the usual formats and normalises to +55', async () => {
    for (const [input, stored] of [
      ['11987654321', '+5511987654321'],
      ['+55 (21) 3456-7890', '+552134567890'],
      ['055 11 98765 4321', '+5511987654321'],
    ] as const) {
      const res = await submit(validLead({ whatsapp: input, email: `w${Math.random()}@example.com` }));
      expect(res.statusCode).toBe(303);
      const lead = await t.db
        .selectFrom('franquia_leads')
        .select('whatsapp')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(lead.whatsapp).toBe(stored);
    }
  });

  const required = ['nome_completo', 'whatsapp', 'email', 'cidade_regiao', ...OPTION_FIELD_NAMES];
  for (const field of required) {
    it(`answers 422 with the form again when ${field} is missing`, async () => {
      const before = await count();
      const res = await submit(validLead({ [field]: undefined }));
      expect(res.statusCode).toBe(422);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain(`id="${field}-erro"`);
      expect(res.body).toMatch(/aria-invalid="true"/);
      // The other values are kept.
      if (field !== 'nome_completo') expect(res.body).toContain('value="Maria José da Conceição"');
      if (field !== 'faixa_investimento')
        expect(res.body).toMatch(/value="300mil_500mil"[^>]*checked|checked[^>]*value="300mil_500mil"/);
      expect(await count()).toBe(before);
    });
  }

  for (const field of OPTION_FIELD_NAMES) {
    it(`refuses a value outside the list for ${field}`, async () => {
      const res = await submit(validLead({ [field]: 'qualquer_coisa' }), { json: true });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual([field]);
    });
  }

  it('requires consent: aceita_contato must be "sim"', async () => {
    const res = await submit(validLead({ aceita_contato: 'nao' }));
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('marque a autorização');
  });

  it('refuses values that are too long, with pt-BR messages', async () => {
    const res = await submit(
      validLead({
        nome_completo: 'a'.repeat(121),
        cidade_regiao: 'b'.repeat(121),
        email: `${'c'.repeat(250)}@example.com`,
      }),
      { json: true },
    );
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors;
    expect(errors.nome_completo).toMatch(/máximo 120/);
    expect(errors.cidade_regiao).toMatch(/máximo 120/);
    expect(errors.email).toMatch(/máximo 254/);
    const ok = await submit(validLead({ nome_completo: 'a'.repeat(120), cidade_regiao: 'b'.repeat(120) }));
    expect(ok.statusCode).toBe(303);
  });

  it('refuses a bad WhatsApp number and a bad e-mail', async () => {
    for (const whatsapp of ['1234', '(11) 8765-432', '+1 415 555 0100', '00000000000', 'abc']) {
      const res = await submit(validLead({ whatsapp }), { json: true });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.whatsapp).toMatch(/DDD/);
    }
    for (const email of ['maria', 'maria@', 'maria@example', 'a b@example.com', 'x@y.com\r\nBcc: z@w.com']) {
      const res = await submit(validLead({ email }), { json: true });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.email).toBeDefined();
    }
  });

  it('answers JSON clients with {errors: {field: message}} and every field at once', async () => {
    const res = await submit({}, { json: true });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(Object.keys(res.json().errors).sort()).toEqual([...required].sort());
    const ok = await submit(validLead(), { json: true });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ ok: true, id: expect.any(Number) });
  });

  it('refuses a missing or wrong CSRF token with 403 and a link to the form; nothing stored', async () => {
    const before = await count();
    const missing = await submit(validLead(), { token: null });
    expect(missing.statusCode).toBe(403);
    expect(missing.body).toContain('href="/pages/Franquia/index.php"');
    const wrong = await submit(validLead(), { token: 'token-falso' });
    expect(wrong.statusCode).toBe(403);
    const noCookie = await t.app.inject({
      method: 'POST',
      url: URL,
      remoteAddress: nextIp(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: 'x', ...validLead() }),
    });
    expect(noCookie.statusCode).toBe(403);
    const json = await submit(validLead(), { token: null, json: true });
    expect(json.statusCode).toBe(403);
    expect(json.json()).toEqual({
      error: 'Não foi possível confirmar o envio',
      message: expect.stringContaining('nada foi gravado'),
      errors: { _token: expect.any(String) },
    });
    expect(await count()).toBe(before);
  });

  it('drops a submission that fills the honeypot, answering like a success', async () => {
    const before = await count();
    const res = await submit(validLead({ site_empresa: 'http://spam.example' }));
    expect(res.statusCode).toBe(303);
    expect(await count()).toBe(before);
  });

  it('limits submissions per address: 429 with Retry-After', async () => {
    await awayFromWindowEnd(FORM_RATE_LIMIT.timeWindow);
    const addr = '10.60.0.1';
    let last = await submit(validLead(), { remoteAddress: addr });
    for (let i = 0; i < 10; i++)
      last = await submit(validLead({ nome_completo: i % 2 ? '' : 'Nome Válido' }), { remoteAddress: addr });
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(last.body).toContain('Muitas tentativas');
    // Another address is unaffected.
    expect((await submit(validLead())).statusCode).toBe(303);
  });

  it('cannot inject markup: values are escaped when the form comes back', async () => {
    const res = await submit(validLead({ nome_completo: '<script>alert(1)</script>', whatsapp: '' }));
    expect(res.statusCode).toBe(422);
    expect(res.body).not.toContain('<script>alert(1)</script>');
    expect(res.body).toContain('&lt;script>');
  });
});
