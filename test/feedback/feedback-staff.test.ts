import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAggregatesRepository } from '../../src/features/feedback/survey/aggregates.repository';
import sharp from 'sharp';
import { saoPauloDayStartIso } from '../../src/lib/time';
import { computeNps, monthsOf, resolvePeriod } from '../../src/features/feedback/survey/nps';
import { defuseCell } from '../../src/db/csv/index';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm } from '../helpers/http';
import { createStaffUser, loginAs } from '../helpers/staff';

let t: TestContext;
let units: { id: number; nome: string }[];
let A: number, B: number, C: number;
let escala: number, limpeza: number;
const opts: Record<number, { id: number; valor: number | null; texto: string }[]> = {};
let adminCookie: string;
let managerA: string; // gerente of unit A
let managerB: string; // gerente of unit B

const daysAgo = (n: number, hour = 12) =>
  new Date(Date.now() - n * 86400_000).toISOString().replace(/T\d\d/, `T${String(hour).padStart(2, '0')}`);

async function addResponse(
  unidadeId: number,
  nota: number | null,
  criadoEm: string,
  extra: { comentario?: string; limpezaValor?: number } = {},
) {
  const { id } = await t.db
    .insertInto('respostas_nps')
    .values({
      unidade_id: unidadeId,
      nota_nps: nota,
      criado_em: criadoEm,
      comentario: extra.comentario ?? null,
      nome_cliente: null,
      contato_cliente: null,
      envio_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const items = [];
  if (nota !== null)
    items.push({
      resposta_id: id,
      pergunta_id: escala,
      opcao_id: opts[escala]!.find((o) => o.valor === nota)!.id,
      texto: null,
      texto_ok: 0,
    });
  if (extra.limpezaValor)
    items.push({
      resposta_id: id,
      pergunta_id: limpeza,
      opcao_id: opts[limpeza]!.find((o) => o.valor === extra.limpezaValor)!.id,
      texto: null,
      texto_ok: 0,
    });
  if (items.length) await t.db.insertInto('respostas_itens').values(items).execute();
  // Rows written straight into the tables, as another tool would: the figures are recounted.
  await createAggregatesRepository(t.db).rebuild();
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  units = await t.db.selectFrom('unidades').select(['id', 'nome']).where('ativo', '=', 1).orderBy('id').execute();
  [A, B, C] = [units[0]!.id, units[1]!.id, units[2]!.id];
  const qs = await t.db.selectFrom('perguntas').select(['id']).orderBy('ordem').execute();
  [escala, limpeza] = [qs[0]!.id, qs[1]!.id];
  for (const o of await t.db
    .selectFrom('perguntas_opcoes')
    .select(['id', 'pergunta_id', 'valor', 'texto'])
    .orderBy('ordem')
    .execute()) {
    (opts[o.pergunta_id] ??= []).push(o);
  }
  // Unit A: 10, 9, 9, 8, 7, 6, 0 → 3 promoters, 2 detractors of 7 → NPS 14.3
  for (const [i, n] of [10, 9, 9, 8, 7, 6, 0].entries()) {
    await addResponse(A, n, daysAgo(i + 1), {
      limpezaValor: i < 4 ? 4 : 1,
      comentario: i === 0 ? '=HYPERLINK("http://evil.example","x")' : undefined,
    });
  }
  // Unit B: 10, 3 → NPS 0
  await addResponse(B, 10, daysAgo(2));
  await addResponse(B, 3, daysAgo(3));
  // Outside the default 90 days: ignored by default
  await addResponse(A, 0, daysAgo(200));
  // Unit C: 30 passives (for the pagination)
  for (let i = 0; i < 30; i++) await addResponse(C, 8, daysAgo(5));

  const admin = await createStaffUser(t.db, { papel: 'admin', nome: 'Admin Geral' });
  adminCookie = await loginAs(t.app, admin.email, admin.password);
  const ga = await createStaffUser(t.db, { papel: 'gerente', unidadeIds: [A], nome: 'Gerente A' });
  managerA = await loginAs(t.app, ga.email, ga.password);
  const gb = await createStaffUser(t.db, { papel: 'gerente', unidadeIds: [B], nome: 'Gerente B' });
  managerB = await loginAs(t.app, gb.email, gb.password);
});
afterAll(async () => t?.close());

const get = (url: string, cookie?: string, accept?: string) =>
  t.app.inject({ method: 'GET', url, headers: { ...(cookie ? { cookie } : {}), ...(accept ? { accept } : {}) } });

const overallNps = (body: string) => /data-nps-geral(?:="")?>([^<]+)</.exec(body)?.[1];

describe('NPS arithmetic', () => {
  it('is % promoters minus % detractors', () => {
    expect(computeNps({ total: 0, promotores: 0, detratores: 0 })).toBeNull();
    expect(computeNps({ total: 10, promotores: 10, detratores: 0 })).toBe(100);
    expect(computeNps({ total: 4, promotores: 0, detratores: 4 })).toBe(-100);
    expect(computeNps({ total: 7, promotores: 3, detratores: 2 })).toBe(14.3);
    expect(computeNps({ total: 9, promotores: 4, detratores: 3 })).toBe(11.1);
    expect(computeNps({ total: 3, promotores: 1, detratores: 1 })).toBe(0);
  });

  it('uses São Paulo days and months for periods', () => {
    const p = resolvePeriod('2026-01-01', '2026-03-31');
    expect(p.fromIso).toBe('2026-01-01T03:00:00.000Z');
    expect(p.toIso).toBe('2026-04-01T03:00:00.000Z');
    expect(monthsOf(p).map((m) => m.label)).toEqual(['2026-01', '2026-02', '2026-03']);
    const d = resolvePeriod(undefined, undefined, 90, '2026-11-22');
    expect(d.de).toBe('2026-08-25');
    expect(resolvePeriod('2026-05-10', '2026-05-01').de).toBe('2026-05-01');
    expect(resolvePeriod('2026-02-30', undefined, 90, '2026-11-22').de).toBe('2026-08-25');
  });

  it('defuses formula cells', () => {
    expect(defuseCell('=1+1')).toBe("'=1+1");
    expect(defuseCell('+55 11')).toBe("'+55 11");
    expect(defuseCell('-x')).toBe("'-x");
    expect(defuseCell('@SUM')).toBe("'@SUM");
    expect(defuseCell('ok')).toBe('ok');
    expect(defuseCell(7)).toBe(7);
  });
});

describe('survey results page', () => {
  it('sends anonymous visitors to the login page', async () => {
    const res = await get('/admin/pesquisa');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/pages\/Franquia\/admin\.php\?voltar=/);
    expect((await get('/admin/pesquisa', undefined, 'application/json')).statusCode).toBe(401);
  });

  it('shows the NPS per unit and overall over the default 90 days', async () => {
    const res = await get('/admin/pesquisa', adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    // A: 14.3, B: 0, C: 30 passives → 0; overall: 4 promoters, 3 detractors of 39 → 2.6
    expect(overallNps(res.body)).toBe('2,6');
    expect(res.body).toContain('39 notas: 4 promotores, 32 neutros, 3 detratores');
    expect(res.body).toContain('<strong>14,3</strong>');
    expect(res.body).toContain('Respostas (39)');
    expect(res.body).toContain('Página 1 de 2');
    const onlyA = await get(`/admin/pesquisa?unidade_id=${A}`, adminCookie);
    expect(overallNps(onlyA.body)).toBe('14,3');
    // the distribution of the "limpeza" question in unit A: 4 × Ótima, 3 × Ruim
    expect(onlyA.body).toMatch(/Ótima<\/th><td>4<\/td><td>57,1%/);
    expect(onlyA.body).toMatch(/Ruim<\/th><td>3<\/td><td>42,9%/);
    const wide = await get(`/admin/pesquisa?unidade_id=${A}&de=2020-01-01`, adminCookie);
    expect(wide.body).toContain('8 notas: 3 promotores, 2 neutros, 3 detratores');
  });

  it('puts responses in São Paulo months for the trend', async () => {
    await addResponse(B, 10, '2025-01-15T15:00:00.000Z');
    await addResponse(B, 10, '2025-01-20T15:00:00.000Z');
    // 28 Feb 23:30 in São Paulo is 1 Mar in UTC: it belongs to February
    await addResponse(B, 0, '2025-03-01T02:30:00.000Z');
    await addResponse(B, 9, '2025-03-10T15:00:00.000Z');
    const res = await get(`/admin/pesquisa?unidade_id=${B}&de=2025-01-01&ate=2025-03-31`, adminCookie);
    const row = (label: RegExp) => {
      const m = new RegExp(
        `<th scope="row">${label.source}</th><td>(\\d+)</td><td>(\\d+)</td><td>(\\d+)</td><td>([^<]+)</td>`,
      ).exec(res.body);
      return m ? m.slice(1, 5) : null;
    };
    expect(row(/jan\.? de 2025/)).toEqual(['2', '2', '0', '100']);
    expect(row(/fev\.? de 2025/)).toEqual(['1', '0', '1', '-100']);
    expect(row(/mar\.? de 2025/)).toEqual(['1', '1', '0', '100']);
  });

  it('filters the list by score and paginates', async () => {
    const det = await get('/admin/pesquisa?categoria=detratores', adminCookie);
    expect(det.body).toContain('Respostas (3)');
    const page2 = await get('/admin/pesquisa?pagina=2', adminCookie);
    expect(page2.body).toContain('Página 2 de 2');
    expect((await get('/admin/pesquisa?unidade_id=abc', adminCookie)).statusCode).toBe(400);
  });

  it('opens a response; a manager of another unit gets 403', async () => {
    const id = (
      await t.db
        .selectFrom('respostas_nps')
        .select('id')
        .where('unidade_id', '=', A)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
    const res = await get(`/admin/pesquisa/resposta/${id}`, adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`Resposta #${id}`);
    expect(res.body).toContain('Ótima');
    expect((await get(`/admin/pesquisa/resposta/${id}`, managerA)).statusCode).toBe(200);
    expect((await get(`/admin/pesquisa/resposta/${id}`, managerB)).statusCode).toBe(403);
    expect((await get('/admin/pesquisa/resposta/99999999', adminCookie)).statusCode).toBe(404);
  });

  it('scopes a unit manager to their units', async () => {
    const own = await get('/admin/pesquisa', managerA);
    expect(overallNps(own.body)).toBe('14,3');
    expect(own.body).toContain('Respostas (7)');
    expect((await get(`/admin/pesquisa?unidade_id=${B}`, managerA)).statusCode).toBe(403);
    expect((await get(`/admin/pesquisa/exportar.csv?unidade_id=${B}`, managerA)).statusCode).toBe(403);
  });

  it('exports CSV with BOM, ";", São Paulo dates and defused formulas', async () => {
    const res = await get(`/admin/pesquisa/exportar.csv?unidade_id=${A}`, adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="pesquisa-/);
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^id;data;unidade;nota_nps;categoria;nome_cliente;contato_cliente;comentario;/);
    expect(lines).toHaveLength(1 + 7);
    expect(res.body).toContain(`'=HYPERLINK(""http://evil.example"",""x"")`);
    expect(lines[1]).toMatch(/^\d+;\d\d\/\d\d\/\d{4} \d\d:\d\d;/);
    // newest first, like the list (ties by id)
    const ids = lines.slice(1).map((l) => Number(l.split(';')[0]));
    const listed = await t.db
      .selectFrom('respostas_nps')
      .select('id')
      .where('unidade_id', '=', A)
      .orderBy('criado_em', 'desc')
      .orderBy('id', 'desc')
      .execute();
    // (the export covers the default period: answers older than it are not in the file)
    expect(ids).toEqual(listed.map((r) => r.id).filter((id) => ids.includes(id)));
    // a manager's export holds only their unit
    const mine = await get('/admin/pesquisa/exportar.csv', managerB);
    expect(
      mine.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')
        .slice(1)
        .every((l) => l.includes(units[1]!.nome)),
    ).toBe(true);
  });
});

describe('messages inbox and photos', () => {
  let messageId: number;
  let fileId: number;
  let unitlessId: number;

  beforeAll(async () => {
    const send = async (fields: Record<string, string>, withPhoto: boolean) => {
      const { token, cookie } = await fetchForm(t.app, '/NPS/nps_app_php/fale_aqui.php', '_token');
      const fd = new FormData();
      for (const [k, v] of Object.entries({ _token: token, ...fields })) fd.append(k, v);
      if (withPhoto) {
        const img = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#ff0000' } })
          .jpeg()
          .toBuffer();
        fd.append('arquivos[]', new Blob([new Uint8Array(img)], { type: 'image/jpeg' }), 'foto.jpg');
      }
      const body = new Response(fd);
      const res = await t.app.inject({
        method: 'POST',
        url: '/NPS/nps_app_php/salvar_fale_aqui.php',
        headers: { cookie, 'content-type': body.headers.get('content-type')! },
        payload: Buffer.from(await body.arrayBuffer()),
      });
      expect(res.statusCode).toBe(303);
      return (await t.db.selectFrom('fale_aqui').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    };
    messageId = await send(
      { nome_completo: 'Gil', unidade_id: String(A), unidade: '', mensagem: '=cmd|calc esteira quebrada' },
      true,
    );
    unitlessId = await send({ nome_completo: '', unidade_id: '', unidade: 'Outra', mensagem: 'Sem unidade' }, false);
    fileId = (
      await t.db
        .selectFrom('fale_aqui_arquivos')
        .select('id')
        .where('fale_aqui_id', '=', messageId)
        .executeTakeFirstOrThrow()
    ).id;
  });

  it('lists messages per unit with statuses', async () => {
    const res = await get('/admin/mensagens', adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`/admin/mensagens/${messageId}`);
    expect(res.body).toContain(`/admin/mensagens/${unitlessId}`);
    expect(res.body).toContain('Nova: 2');
    const mine = await get('/admin/mensagens', managerA);
    expect(mine.body).toContain(`/admin/mensagens/${messageId}`);
    expect(mine.body).not.toContain(`/admin/mensagens/${unitlessId}"`);
    const other = await get('/admin/mensagens', managerB);
    expect(other.body).not.toContain(`/admin/mensagens/${messageId}"`);
    expect((await get(`/admin/mensagens?unidade_id=${A}`, managerB)).statusCode).toBe(403);
    expect((await get('/admin/mensagens')).statusCode).toBe(303);
  });

  it('shows a message with its photo to staff of that unit only', async () => {
    const res = await get(`/admin/mensagens/${messageId}`, adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`src="/admin/mensagens/foto/${fileId}"`);
    expect(res.body).toContain('esteira quebrada');
    expect((await get(`/admin/mensagens/${messageId}`, managerA)).statusCode).toBe(200);
    expect((await get(`/admin/mensagens/${messageId}`, managerB)).statusCode).toBe(403);
    expect((await get(`/admin/mensagens/${unitlessId}`, managerA)).statusCode).toBe(403);
  });

  it('streams photos with a fixed type, nosniff and no-store; never to anonymous visitors or other units', async () => {
    const res = await get(`/admin/mensagens/foto/${fileId}`, managerA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['content-disposition']).toMatch(/^inline; filename="foto-\d+\.jpg"$/);
    expect((await sharp(res.rawPayload).metadata()).format).toBe('jpeg');
    const anon = await get(`/admin/mensagens/foto/${fileId}`);
    expect(anon.statusCode).toBe(303);
    expect(anon.headers.location).toMatch(/^\/pages\/Franquia\/admin\.php/);
    expect(anon.headers['content-type'] ?? '').not.toMatch(/image/);
    expect(anon.rawPayload.subarray(0, 3)).not.toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const anonJson = await get(`/admin/mensagens/foto/${fileId}`, undefined, 'application/json');
    expect(anonJson.statusCode).toBe(401);
    const other = await get(`/admin/mensagens/foto/${fileId}`, managerB);
    expect(other.statusCode).toBe(403);
    expect(other.headers['content-type']).not.toMatch(/image/);
    expect((await get('/admin/mensagens/foto/99999999', adminCookie)).statusCode).toBe(404);
    // never under public/
    const stored = await t.db
      .selectFrom('fale_aqui_arquivos')
      .select('caminho')
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow();
    expect((await get(`/${stored.caminho}`)).statusCode).toBe(404);
  });

  it('changes the status with a CSRF-protected POST', async () => {
    const page = await fetchForm(t.app, `/admin/mensagens/${messageId}`, 'csrf_token', managerA);
    const post = (cookie: string, body: string) =>
      t.app.inject({
        method: 'POST',
        url: `/admin/mensagens/${messageId}/status`,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: body,
      });
    expect((await post(page.cookie, 'status=lido')).statusCode).toBe(403);
    expect((await post(page.cookie, `csrf_token=${encodeURIComponent(page.token)}&status=arquivado`)).statusCode).toBe(
      422,
    );
    const ok = await post(page.cookie, `csrf_token=${encodeURIComponent(page.token)}&status=resolvido`);
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe(`/admin/mensagens/${messageId}?salvo=1`);
    const row = await t.db
      .selectFrom('fale_aqui')
      .select('status')
      .where('id', '=', messageId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('resolvida'); // the older value is still accepted, stored as the new one
    const otherPage = await fetchForm(t.app, '/admin/mensagens', 'csrf_token', managerB);
    expect(
      (await post(otherPage.cookie, `csrf_token=${encodeURIComponent(otherPage.token)}&status=novo`)).statusCode,
    ).toBe(403);
    expect((await get('/admin/mensagens?status=resolvido', adminCookie)).body).toContain(
      `/admin/mensagens/${messageId}"`,
    );
  });

  it('exports the messages as CSV', async () => {
    const res = await get('/admin/mensagens/exportar.csv', adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'id;data;unidade;nome;anonimo;status;mensagem;fotos;contato_email;contato_telefone;primeira_resposta',
    );
    expect(res.body).toContain("'=cmd|calc esteira quebrada");
    expect(lines).toHaveLength(3);
    const mine = await get('/admin/mensagens/exportar.csv', managerA);
    expect(
      mine.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toHaveLength(2);
  });
});

it('keeps day boundaries in São Paulo', () => {
  expect(saoPauloDayStartIso('2026-11-22')).toBe('2026-11-22T03:00:00.000Z');
});
