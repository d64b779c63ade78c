// The staff queue of privacy requests: overdue first, a request opened at the front desk
// after a search by WhatsApp, refusal needs a reason, a request closes once (two admins at
// once: one wins, the other is told, no 500); the person's correction request: a pt-BR
// message by the field, and a double submit stored once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestRow } from '../../src/features/privacy/requests';
import { createTestApp, type TestContext } from '../helpers/app';
import { cookiesFrom, fetchForm, form } from '../helpers/http';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';

let t: TestContext;
let admin: string;
let ip = 0;
const nextIp = () => `10.89.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;

beforeAll(async () => {
  t = await createTestApp({ env: { SMTP_HOST: '127.0.0.1', PUBLIC_URL: 'https://academia.exemplo.com.br' } });
  const staff = await createStaffUser(t.db, { papel: 'admin' });
  admin = await loginAs(t.app, staff.email, staff.password);
}, 60_000);
afterAll(async () => t?.close());

const post = (url: string, cookie: string, fields: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url,
    remoteAddress: nextIp(),
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form(fields),
  });

async function book(whatsapp: string, email: string) {
  const page = await fetchForm(t.app, '/aula-experimental?unidade=1');
  const slots = [...page.res.body.matchAll(/name="vaga" value="(aula:[^"]+)"/g)].map((m) => m[1]!);
  const res = await post('/aula-experimental?unidade=1', page.cookie, {
    csrf_token: page.token,
    envio_id: /name="envio_id" value="([^"]+)"/.exec(page.res.body)![1]!,
    nome: 'Carlos Balcão',
    whatsapp,
    email,
    aceita_contato: 'sim',
    vaga: slots.at(-2)!,
  });
  expect(res.statusCode).toBe(303);
}

describe('staff queue', () => {
  it('lists open requests by deadline with the overdue first', async () => {
    const now = Date.now();
    const subject = { email: 'antigo@exemplo.com.br', phones: [] };
    await t.db
      .insertInto('privacidade_solicitacoes')
      .values([
        requestRow({ tipo: 'correcao', canal: 'site', subject, now: new Date(now - 2 * 86_400_000) }),
        requestRow({ tipo: 'acesso', canal: 'site', subject, now: new Date(now - 20 * 86_400_000) }),
      ])
      .execute();
    const res = await t.app.inject({ url: '/admin/privacidade', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    const order = [...res.body.matchAll(/<td>(Confirmação e acesso aos dados|Correção)<\/td>/g)].map((m) => m[1]);
    expect(order).toEqual(['Confirmação e acesso aos dados', 'Correção']);
    expect(res.body.match(/\(atrasado\)/g)).toHaveLength(1);
    expect(res.body).not.toContain('antigo@');
  });

  it('finds a person by WhatsApp across the site and opens a request for them; refusal needs a reason', async () => {
    await book('(41) 99911-2233', 'carlos@exemplo.com.br');
    const search = await t.app.inject({
      url: `/admin/privacidade/busca?q=${encodeURIComponent('41 99911-2233')}`,
      headers: { cookie: admin },
    });
    expect(search.statusCode).toBe(200);
    expect(search.body).toContain('Aulas experimentais agendadas (1)');
    const bad = await t.app.inject({ url: '/admin/privacidade/busca?q=abc', headers: { cookie: admin } });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Informe um e-mail ou um WhatsApp');
    // Any length: the message by the field, the text kept, never a bare 400.
    const long = await t.app.inject({
      url: `/admin/privacidade/busca?q=${'9'.repeat(600)}`,
      headers: { cookie: admin },
    });
    expect(long.statusCode).toBe(422);
    expect(long.body).toContain('Informe um e-mail ou um WhatsApp');
    expect(long.body).toContain(`value="${'9'.repeat(600)}"`);

    const token = await staffToken(t.app, admin, '/admin/privacidade');
    const missing = await post('/admin/privacidade', admin, { csrf_token: token, tipo: 'acesso' });
    expect(missing.statusCode).toBe(422);
    expect(missing.body).toContain('Informe o e-mail ou o WhatsApp da pessoa.');
    const opened = await post('/admin/privacidade', admin, {
      csrf_token: token,
      tipo: 'acesso',
      telefone: '(41) 99911-2233',
      texto: 'Ligou pedindo os dados.',
      envio_id: 'balcao-1',
    });
    expect(opened.statusCode).toBe(303);
    const id = Number(/\/admin\/privacidade\/(\d+)/.exec(String(opened.headers.location))![1]);
    // a double click stores one request
    await post('/admin/privacidade', admin, {
      csrf_token: token,
      tipo: 'acesso',
      telefone: '41999112233',
      envio_id: 'balcao-1',
    });
    expect(
      await t.db.selectFrom('privacidade_solicitacoes').select('id').where('canal', '=', 'equipe').execute(),
    ).toHaveLength(1);

    const detail = await t.app.inject({ url: `/admin/privacidade/${id}`, headers: { cookie: admin } });
    expect(detail.body).toContain('carlos@exemplo.com.br');
    expect(detail.body).toContain('Aulas experimentais agendadas (1)');
    const zip = await t.app.inject({ url: `/admin/privacidade/${id}/dados.zip`, headers: { cookie: admin } });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');

    const noReason = await post(`/admin/privacidade/${id}/recusar`, admin, { csrf_token: token, motivo: '' });
    expect(noReason.statusCode).toBe(422);
    expect(noReason.body).toContain('Explique por que o pedido foi recusado.');
    const refused = await post(`/admin/privacidade/${id}/recusar`, admin, {
      csrf_token: token,
      motivo: 'Não foi possível confirmar a identidade.',
    });
    expect(refused.statusCode).toBe(303);
    const row = await t.db
      .selectFrom('privacidade_solicitacoes')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('recusada');
    expect(row.concluida_por).not.toBeNull();
    expect(row.concluida_em).not.toBeNull();
    // closed once: a second decision is refused with a message, never a 500
    const again = await post(`/admin/privacidade/${id}/concluir`, admin, { csrf_token: token });
    expect(again.statusCode).toBe(409);
  });

  it('two admins erasing at once: one erases, the other is told it is done', async () => {
    await book('(41) 98877-6655', 'dupla@exemplo.com.br');
    const [id] = (
      await t.db
        .insertInto('privacidade_solicitacoes')
        .values(
          requestRow({ tipo: 'eliminacao', canal: 'site', subject: { email: 'dupla@exemplo.com.br', phones: [] } }),
        )
        .returning('id')
        .execute()
    ).map((r) => r.id);
    const token = await staffToken(t.app, admin, '/admin/privacidade');
    const results = await Promise.all(
      [1, 2].map(() => post(`/admin/privacidade/${id}/eliminar`, admin, { csrf_token: token, confirmar: 'sim' })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([303, 409]);
    const left = await t.db
      .selectFrom('aulas_experimentais')
      .select(['email', 'whatsapp', 'anonimizado_em'])
      .where('nome', '=', '[apagado]')
      .execute();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ email: null, whatsapp: null });
    expect(await t.db.selectFrom('auditoria').select('id').where('entidade', '=', 'titular').execute()).toHaveLength(1);
  });
});

describe("the person's correction request", () => {
  it('asks for the text by the field, and stores a double submit once', async () => {
    await book('(41) 97766-5544', 'corrige@exemplo.com.br');
    const ask = await fetchForm(t.app, '/privacidade/meus-dados');
    await post('/privacidade/meus-dados', ask.cookie, { csrf_token: ask.token, email: 'corrige@exemplo.com.br' });
    const mail = await t.db
      .selectFrom('fila_emails')
      .select('texto')
      .where('destinatario', '=', 'corrige@exemplo.com.br')
      .where('origem', '=', 'privacidade:link')
      .executeTakeFirstOrThrow();
    const token = /token=([\w-]+)/.exec(mail.texto)![1]!;
    // A mangled link, however long, is "no longer valid" (410), in pt-BR.
    const mangled = await t.app.inject({ url: `/privacidade/meus-dados/acesso?token=${token.repeat(10)}` });
    expect(mangled.statusCode).toBe(410);
    expect(mangled.body).toContain('Link inválido ou expirado');
    const open = await fetchForm(t.app, `/privacidade/meus-dados/acesso?token=${token}`);
    const opened = await post('/privacidade/meus-dados/acesso', open.cookie, { csrf_token: open.token, token });
    const person = cookiesFrom(opened, open.cookie);
    const panel = await t.app.inject({ url: '/privacidade/meus-dados/painel', headers: { cookie: person } });
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(panel.body)![1]!;

    const empty = await post('/privacidade/meus-dados/correcao', person, { csrf_token: csrf, correcao: '  ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain('Escreva o que está errado e como deve ficar.');
    expect(empty.body).toContain('aria-invalid="true"');
    const fields = { csrf_token: csrf, correcao: 'Meu nome é Carla, não Carlos.', envio_id: 'correcao-envio-1' };
    expect((await post('/privacidade/meus-dados/correcao', person, fields)).statusCode).toBe(303);
    expect((await post('/privacidade/meus-dados/correcao', person, fields)).statusCode).toBe(303);
    const rows = await t.db.selectFrom('privacidade_solicitacoes').selectAll().where('tipo', '=', 'correcao').execute();
    expect(rows.filter((r) => r.email === 'corrige@exemplo.com.br')).toHaveLength(1);
  });
});
