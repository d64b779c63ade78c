// The incident register (/admin/privacidade/incidentes): admins only; create, edit, list,
// CSV; bad input comes back with the values kept and a pt-BR message by each field,
// nothing stored; every change has its audit row. On SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { form } from '../helpers/http';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';

const BASE = '/admin/privacidade/incidentes';
let t: TestContext;
let admin: string;
let manager: string;

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  const a = await createStaffUser(t.db, { papel: 'admin', nome: 'Ana Admin' });
  admin = await loginAs(t.app, a.email, a.password);
  const m = await createStaffUser(t.db, { papel: 'gerente', unidadeIds: [] });
  manager = await loginAs(t.app, m.email, m.password);
});
afterAll(async () => t?.close());

const VALID = {
  constatado_em: '2026-11-20',
  descricao: 'Planilha de leads enviada por engano a um fornecedor.\nApagada por ele no mesmo dia.',
  dados_afetados: 'nome, e-mail, WhatsApp',
  titulares_afetados: 'candidatos a franquia',
  quantidade_titulares: '1.200',
  risco: 'medio',
  medidas: 'Confirmação por escrito da exclusão; envio de planilhas bloqueado.',
  anpd_comunicada_em: '2026-11-22',
  titulares_comunicados_em: '',
};

async function post(url: string, fields: Record<string, string>, cookie = admin) {
  const token = await staffToken(t.app, cookie, BASE);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ csrf_token: token, ...fields }),
  });
}
const count = async () =>
  Number(
    (
      await t.db
        .selectFrom('incidentes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('incident register', () => {
  it('is for admins only', async () => {
    for (const url of [BASE, `${BASE}/novo`, `${BASE}.csv`]) {
      expect((await t.app.inject({ url, headers: { cookie: manager } })).statusCode).toBe(403);
      const anonymous = await t.app.inject({ url });
      expect(anonymous.statusCode).toBe(303);
    }
    const res = await t.app.inject({
      method: 'POST',
      url: `${BASE}/novo`,
      headers: { cookie: manager, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form(VALID),
    });
    expect([403, 422]).toContain(res.statusCode);
    expect(await count()).toBe(0);
  });

  it('refuses bad input with a message by each field, the values kept, nothing stored', async () => {
    const res = await post(`${BASE}/novo`, {
      ...VALID,
      constatado_em: '2099-01-01',
      descricao: '',
      quantidade_titulares: 'muitos',
      risco: 'gigante',
      anpd_comunicada_em: '2026-02-30',
      titulares_comunicados_em: '2026-11-01',
      medidas: 'Trocamos\u0000 a senha',
    });
    expect(res.statusCode).toBe(422);
    const body = res.body;
    expect(body).toContain('A data não pode estar no futuro.');
    expect(body).toContain('Descreva o que aconteceu.');
    expect(body).toContain('Use um número inteiro entre 0 e');
    expect(body).toContain('Escolha o risco: baixo, médio ou alto.');
    expect(body).toContain('Data inválida');
    expect(body).toContain('caractere inválido (NUL)');
    expect(body).toContain('value="muitos"');
    expect(body).toContain('candidatos a franquia');
    expect(await count()).toBe(0);

    // A communication before the incident itself.
    const before = await post(`${BASE}/novo`, { ...VALID, titulares_comunicados_em: '2026-11-01' });
    expect(before.statusCode).toBe(422);
    expect(before.body).toContain('não pode ser anterior à data do incidente (20/11/2026)');
    const json = await t.app.inject({
      method: 'POST',
      url: `${BASE}/novo`,
      headers: {
        cookie: admin,
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: form({ csrf_token: await staffToken(t.app, admin, BASE), ...VALID, risco: '' }),
    });
    expect(json.statusCode).toBe(422);
    expect(json.json().errors.risco).toBe('Escolha o risco: baixo, médio ou alto.');
    expect(await count()).toBe(0);
  });

  it('creates, lists, edits with audit rows, and exports CSV', async () => {
    const created = await post(`${BASE}/novo`, VALID);
    expect(created.statusCode).toBe(303);
    const id = Number(/\/(\d+)\?ok=criado$/.exec(created.headers.location as string)![1]);
    const row = await t.db.selectFrom('incidentes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      constatado_em: '2026-11-20',
      quantidade_titulares: 1200,
      risco: 'medio',
      anpd_comunicada_em: '2026-11-22',
      titulares_comunicados_em: null,
    });

    const list = await t.app.inject({ url: BASE, headers: { cookie: admin } });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('20/11/2026');
    expect(list.body).toContain('Médio');
    expect(list.body).toContain('pelo menos 5 anos');
    expect(list.headers['cache-control']).toContain('no-store');

    const page = await t.app.inject({ url: `${BASE}/${id}`, headers: { cookie: admin } });
    expect(page.body).toContain('Planilha de leads enviada por engano');

    const edited = await post(`${BASE}/${id}`, { ...VALID, titulares_comunicados_em: '2026-11-25', risco: 'alto' });
    expect(edited.statusCode).toBe(303);
    const after = await t.db.selectFrom('incidentes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ risco: 'alto', titulares_comunicados_em: '2026-11-25' });

    const badEdit = await post(`${BASE}/${id}`, { ...VALID, medidas: '' });
    expect(badEdit.statusCode).toBe(422);
    expect(badEdit.body).toContain('Informe as medidas tomadas');
    expect(
      (await t.db.selectFrom('incidentes').select('medidas').where('id', '=', id).executeTakeFirstOrThrow()).medidas,
    ).toBe(VALID.medidas);

    const audit = await t.db
      .selectFrom('auditoria')
      .selectAll()
      .where('entidade', '=', 'incidente')
      .where('entidade_id', '=', id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.acao)).toEqual(['criar', 'editar']);
    expect(JSON.parse(audit[1]!.antes!)).toMatchObject({ risco: 'medio' });
    expect(JSON.parse(audit[1]!.depois!)).toMatchObject({ risco: 'alto' });

    expect((await t.app.inject({ url: `${BASE}/999999`, headers: { cookie: admin } })).statusCode).toBe(404);
    expect((await post(`${BASE}/999999`, VALID)).statusCode).toBe(404);

    const csv = await t.app.inject({ url: `${BASE}.csv`, headers: { cookie: admin } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="incidentes-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'id;constatado_em;o_que_aconteceu;dados_afetados;titulares_afetados;quantidade_aproximada;risco;medidas;' +
        'anpd_comunicada_em;titulares_comunicados_em;registrado_em;atualizado_em',
    );
    expect(csv.body).toContain(`${id};20/11/2026;"Planilha de leads enviada por engano a um fornecedor.`);
    expect(csv.body).toContain(';1200;Alto;');
    expect(csv.body).toContain(';22/11/2026;25/11/2026;');
  });
});
