// The unit's QR poster and the channel of each answer (site, cartaz, quiosque).
import jsQR from 'jsqr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm, form } from '../helpers/http';
import { createStaffUser, loginAs } from '../helpers/staff';

let t: TestContext;
let A: { id: number; nome: string };
let B: { id: number; nome: string };
let managerA: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://www.rede.example', BRAND_NAME: 'Rede Teste' } });
  const units = await t.db
    .selectFrom('unidades')
    .select(['id', 'nome'])
    .where('ativo', '=', 1)
    .orderBy('id')
    .limit(2)
    .execute();
  [A, B] = [units[0]!, units[1]!];
  const ga = await createStaffUser(t.db, { papel: 'gerente', unidadeIds: [A.id] });
  const adm = await createStaffUser(t.db, { papel: 'admin' });
  managerA = await loginAs(t.app, ga.email, ga.password);
  admin = await loginAs(t.app, adm.email, adm.password);
});
afterAll(async () => t?.close());

async function decodeSvg(svg: string): Promise<string | null> {
  const { data, info } = await sharp(Buffer.from(svg))
    .resize(400, 400)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data ?? null;
}

describe('QR poster', () => {
  it(`renders an A4 poster with the brand, the unit and a QR code opening the unit's survey from PUBLIC_URL with \
origem=cartaz`, async () => {
    const res = await t.app.inject({ url: `/admin/pesquisa/cartaz/${A.id}`, headers: { cookie: managerA } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('/css/cartaz.css');
    expect(res.body).toContain('Rede Teste');
    expect(res.body).toContain(A.nome);
    expect(res.body).not.toMatch(/style=|<script/);
    const svg = /<svg[\s\S]*?<\/svg>/.exec(res.body)![0];
    expect(await decodeSvg(svg)).toBe(
      `https://www.rede.example/NPS/nps_app_php/index.php?unidade_id=${A.id}&origem=cartaz`,
    );
  });

  it('offers the QR code as a downloadable SVG', async () => {
    const res = await t.app.inject({ url: `/admin/pesquisa/cartaz/${A.id}/qr.svg`, headers: { cookie: managerA } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="qr-pesquisa-unidade-${A.id}.svg"`);
    expect(await decodeSvg(res.body)).toContain(`unidade_id=${A.id}&origem=cartaz`);
  });

  it("another unit's poster is 403 for a manager; unknown unit 404; anonymous to login", async () => {
    expect(
      (await t.app.inject({ url: `/admin/pesquisa/cartaz/${B.id}`, headers: { cookie: managerA } })).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ url: `/admin/pesquisa/cartaz/${B.id}/qr.svg`, headers: { cookie: managerA } })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ url: '/admin/pesquisa/cartaz/999999', headers: { cookie: admin } })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ url: `/admin/pesquisa/cartaz/${A.id}` })).statusCode).toBe(303);
  });
});

describe('the channel of each answer', () => {
  async function answer(query: string, nota: number) {
    const page = await fetchForm(t.app, `/NPS/nps_app_php/index.php?unidade_id=${A.id}${query}`, '_token');
    const scale = [...page.res.body.matchAll(/name="(respostas\[\d+\])" value="(\d+)"/g)];
    const field = scale[0]![1]!;
    const option = scale.filter((m) => m[1] === field)[nota]![2]!;
    const origem = /name="origem" value="([^"]+)"/.exec(page.res.body)?.[1];
    const texts = [...page.res.body.matchAll(/name="(texto_ok\[\d+\])"/g)].map((m) => [m[1]!, '1'] as [string, string]);
    const others = [...new Set([...page.res.body.matchAll(/name="(respostas\[\d+\])"/g)].map((m) => m[1]!))].filter(
      (f) => f !== field,
    );
    const otherPairs = others.map(
      (f) =>
        [f, new RegExp(`name="${f.replace(/[[\]]/g, '\\$&')}" value="(\\d+)"`).exec(page.res.body)![1]!] as [
          string,
          string,
        ],
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/NPS/nps_app_php/salvar_resposta.php',
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form([
        ['_token', page.token],
        ['unidade_id', String(A.id)],
        [field, option],
        ...otherPairs,
        ...texts,
        ...(origem ? [['origem', origem] as [string, string]] : []),
      ]),
    });
    expect(res.statusCode).toBe(303);
    return t.db
      .selectFrom('respostas_nps')
      .select(['origem', 'nota_nps'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
  }

  it('stores site by default, cartaz from the poster link, and treats an unknown value as site', async () => {
    expect(await answer('', 10)).toMatchObject({ origem: 'site', nota_nps: 10 });
    expect(await answer('&origem=cartaz', 9)).toMatchObject({ origem: 'cartaz', nota_nps: 9 });
    expect(await answer('&origem=cartaz', 3)).toMatchObject({ origem: 'cartaz', nota_nps: 3 });
    expect(await answer('&origem=<script>', 8)).toMatchObject({ origem: 'site' });
  });

  it('the dashboard splits the NPS by channel', async () => {
    const res = await t.app.inject({ url: `/admin/pesquisa?unidade_id=${A.id}`, headers: { cookie: managerA } });
    const body = res.body.replace(/<!-- -->/g, '');
    // cartaz: 9 and 3 → (1 − 1) / 2 = 0; site: 10 and 8 → (1 − 0) / 2 = 50
    expect(body).toContain(
      'data-canal="cartaz"><th scope="row">Cartaz (QR code)</th>' +
        '<td>2 notas: 1 promotor, 0 neutros, 1 detrator</td><td><strong>0</strong>',
    );
    expect(body).toContain(
      'data-canal="site"><th scope="row">Site</th>' +
        '<td>2 notas: 1 promotor, 1 neutro, 0 detratores</td><td><strong>50</strong>',
    );
    expect(body).toMatch(/data-canal="quiosque">.*?<strong>—<\/strong>/);
  });
});
