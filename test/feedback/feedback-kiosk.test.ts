// Kiosk mode, server side: the page, the token endpoint, JSON answers that the kiosk's
// queue can resend safely (one response per envio_id).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { cookiesFrom, form } from '../helpers/http';

let t: TestContext;
let unit: { id: number; nome: string };

beforeAll(async () => {
  t = await createTestApp();
  unit = await t.db
    .selectFrom('unidades')
    .select(['id', 'nome'])
    .where('ativo', '=', 1)
    .orderBy('id')
    .executeTakeFirstOrThrow();
});
afterAll(async () => t?.close());

describe('kiosk', () => {
  it('serves the survey with the kiosk script, origem=quiosque, and no link out of the page', async () => {
    const res = await t.app.inject(`/NPS/nps_app_php/quiosque.php?unidade_id=${unit.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('data-kiosk');
    expect(res.body).toContain('<script type="module" src="/assets/kiosk.js">');
    expect(res.body).toContain('name="origem" value="quiosque"');
    expect(res.body).toMatch(/name="envio_id" value="[A-Za-z0-9_-]{8,64}"/);
    expect(res.body).toContain(unit.nome);
    expect(res.body).not.toMatch(/<a\s/);
    expect(res.body).not.toMatch(/<script>(?!<)|style=/);
    expect((await t.app.inject('/NPS/nps_app_php/quiosque.php?unidade_id=abc')).statusCode).toBe(400);
    expect((await t.app.inject('/NPS/nps_app_php/quiosque.php?unidade_id=999999')).statusCode).toBe(404);
  });

  it('hands out a fresh CSRF token as JSON; a JSON answer is 201, its resend 200 and stored once', async () => {
    const tok = await t.app.inject({ url: '/NPS/nps_app_php/token.php', headers: { accept: 'application/json' } });
    expect(tok.statusCode).toBe(200);
    expect(tok.headers['cache-control']).toBe('no-store');
    const { token } = tok.json() as { token: string };
    const cookie = cookiesFrom(tok);
    const page = await t.app.inject(`/NPS/nps_app_php/index.php?unidade_id=${unit.id}`);
    const scale = /name="(respostas\[\d+\])" value="(\d+)"/.exec(page.body)!;
    const required = [
      ...new Set(
        [...page.body.matchAll(/name="(respostas\[\d+\])" value="(\d+)"[^>]*required/g)].map((m) => `${m[1]}=${m[2]}`),
      ),
    ];
    const firstOfEach = new Map<string, string>();
    for (const pair of required) {
      const [k, v] = pair.split('=') as [string, string];
      if (!firstOfEach.has(k)) firstOfEach.set(k, v);
    }
    firstOfEach.set(scale[1]!, scale[2]!);
    const texts = [...page.body.matchAll(/name="(texto_ok\[\d+\])"/g)].map((m) => [m[1]!, '1'] as [string, string]);
    const body = form([
      ['_token', token],
      ['unidade_id', String(unit.id)],
      ['envio_id', 'quiosque-envio-0001'],
      ['origem', 'quiosque'],
      ...firstOfEach.entries(),
      ...texts,
    ]);
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: '/NPS/nps_app_php/salvar_resposta.php',
        headers: { cookie, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        payload: body,
      });
    const first = await post();
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({ ok: true, duplicado: false });
    const again = await post();
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ok: true, duplicado: true });
    const rows = await t.db
      .selectFrom('respostas_nps')
      .select(['origem', 'unidade_id'])
      .where('envio_id', '=', 'quiosque-envio-0001')
      .execute();
    expect(rows).toEqual([{ origem: 'quiosque', unidade_id: unit.id }]);
    // without the token's cookie: 403, so the kiosk knows to fetch a new token
    const noCookie = await t.app.inject({
      method: 'POST',
      url: '/NPS/nps_app_php/salvar_resposta.php',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      payload: body,
    });
    expect(noCookie.statusCode).toBe(403);
  });
});
