// Unit photos on both engines: upload through the safe pipeline, order, alt text, the
// limit of 8, the public responsive images with immutable cache, roles, and the seed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { invalidateCatalogCache } from '../../src/features/catalog/index';
import { seedDemoPhotos } from '../../src/features/unit-photos/demo';
import { formatsToKeep, photoFormats } from '../../src/features/unit-photos/photos';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm, form } from '../helpers/http';
import { createStaffUser, loginAs } from '../helpers/staff';

let t: TestContext;
let admin: string;
let unitId: number;
const path = () => `/admin/conteudo/unidades/${unitId}/fotos`;

beforeAll(async () => {
  t = await createTestApp();
  const a = await createStaffUser(t.db, { papel: 'admin' });
  admin = await loginAs(t.app, a.email, a.password);
  unitId = (
    await t.db.selectFrom('unidades').select('id').where('nome', '=', 'Movimento Pinheiros').executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  await t?.close();
});

async function jpeg(hue: number, width = 2000, height = 1250, withGps = false): Promise<Buffer> {
  let img = sharp({ create: { width, height, channels: 3, background: { r: hue, g: 120, b: 255 - hue } } }).jpeg();
  if (withGps) img = img.withExifMerge({ IFD0: { Make: 'CameraSecreta', Copyright: 'GPS -23.5,-46.6' } });
  return img.toBuffer();
}

async function upload(alt: string, data: Buffer | null, cookie = admin, type = 'image/jpeg') {
  const page = await fetchForm(t.app, path(), 'csrf_token', cookie);
  const fd = new FormData();
  fd.append('csrf_token', page.token);
  fd.append('alt', alt);
  if (data) fd.append('foto', new Blob([new Uint8Array(data)], { type }), 'foto.jpg');
  const res = new Response(fd);
  return t.app.inject({
    method: 'POST',
    url: path(),
    headers: { cookie: page.cookie, 'content-type': res.headers.get('content-type')! },
    payload: Buffer.from(await res.arrayBuffer()),
  });
}

async function act(photoId: number, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const page = await fetchForm(t.app, path(), 'csrf_token', admin);
  return t.app.inject({
    method: 'POST',
    url: `${path()}/${photoId}`,
    headers: { ...headers, cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ csrf_token: page.token, ...fields }),
  });
}

async function bytes(key: string): Promise<Buffer> {
  const file = await t.app.storage.get(key);
  const chunks: Buffer[] = [];
  for await (const c of file!.open()) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const photos = () =>
  t.db.selectFrom('unidade_fotos').selectAll().where('unidade_id', '=', unitId).orderBy('ordem').execute();

describe('staff upload', () => {
  it('shows the screen with the upload form; the unit screen links to it', async () => {
    const res = await t.app.inject({ url: path(), headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('enctype="multipart/form-data"');
    expect(res.body).toContain('Esta unidade ainda não tem fotos');
    const unitScreen = await t.app.inject({ url: `/admin/conteudo/unidades/${unitId}`, headers: { cookie: admin } });
    expect(unitScreen.body).toContain(`href="/admin/conteudo/unidades/${unitId}/fotos"`);
  });

  it(`stores a photo re-encoded without metadata, in AVIF, WebP and JPEG at 480/960/1440, with its alt \
text`, async () => {
    const res = await upload('Sala de musculação com janelas amplas', await jpeg(10, 2000, 1250, true));
    expect(res.statusCode).toBe(303);
    const [row] = await photos();
    expect(row).toMatchObject({ alt: 'Sala de musculação com janelas amplas', largura: 2000, altura: 1250, ordem: 1 });
    expect(row!.hash).toMatch(/^[a-f0-9]{16}$/);
    const storage = t.app.storage;
    expect(row!.formatos).toBe('avif,webp,jpg');
    for (const w of [480, 960, 1440]) {
      for (const ext of ['avif', 'webp', 'jpg']) {
        const file = `unidade_fotos/${unitId}/${row!.hash}-${w}.${ext}`;
        expect((await storage.get(file))?.size, file).toBeGreaterThan(0);
      }
    }
    // every copy's key is recorded with the row: the orphan sweep keeps exactly these (decision 150)
    const recorded = await t.db
      .selectFrom('unidade_fotos_arquivos')
      .select('chave')
      .where('foto_id', '=', row!.id)
      .orderBy('chave')
      .execute();
    expect(recorded.map((r) => r.chave)).toEqual(
      [480, 960, 1440]
        .flatMap((w) => ['avif', 'webp', 'jpg'].map((ext) => `unidade_fotos/${unitId}/${row!.hash}-${w}.${ext}`))
        .sort(),
    );
    const copy = await sharp(await bytes(`unidade_fotos/${unitId}/${row!.hash}-1440.jpg`)).metadata();
    expect(copy.width).toBe(1440);
    expect(copy.exif).toBeUndefined();
    const audit = await t.db.selectFrom('auditoria').selectAll().where('entidade', '=', 'unidade_foto').execute();
    expect(audit.some((a) => a.acao === 'criar')).toBe(true);
  });

  it('the public pages serve it as a responsive picture with immutable, content-hashed URLs', async () => {
    const [row] = await photos();
    const html = (await t.app.inject(`/Detalhes.php?id=${unitId}`)).body;
    const base = `/fotos/unidades/${unitId}/${row!.hash}`;
    // AVIF first, then WebP, then the JPEG <img>
    expect(html).toContain(
      `<source type="image/avif" srcset="${base}-480.avif 480w, ${base}-960.avif 960w, ${base}-1440.avif 1440w" ` +
        `sizes="(min-width: 60rem) 36rem, 100vw"/><source type="image/webp" srcset="${base}-480.webp 480w, ` +
        `${base}-960.webp 960w, ${base}-1440.webp 1440w"`,
    );
    expect(html).toMatch(
      new RegExp(
        `<img class="unit-photo" src="${base}-960\\.jpg" srcset="${base}-480\\.jpg 480w, [^"]+" sizes="[^"]+" ` +
          `width="960" height="600" alt="Sala de musculação com janelas amplas"`,
      ),
    );
    expect(html).toContain('fetchpriority="high"');
    expect(html).toMatch(new RegExp(`<meta property="og:image" content="http://localhost:\\d+${base}-1440\\.jpg"/>`));
    const home = (await t.app.inject('/')).body;
    // decorative in a card (the name is next to it): an empty alt, rendered as a bare attribute
    expect(home).toMatch(new RegExp(`src="${base}-960\\.jpg"[^>]* alt loading="lazy"`));
    const file = await t.app.inject(`${base}-480.webp`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    const avif = await t.app.inject(`${base}-960.avif`);
    expect(avif.statusCode).toBe(200);
    expect(avif.headers['content-type']).toBe('image/avif');
    expect((await sharp(avif.rawPayload).metadata()).format).toBe('heif');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // a photo stored before AVIF (or whose AVIF came out larger than its WebP) offers WebP and JPEG only
    await t.db.updateTable('unidade_fotos').set({ formatos: 'webp,jpg' }).where('id', '=', row!.id).execute();
    invalidateCatalogCache(t.app);
    const older = (await t.app.inject(`/Detalhes.php?id=${unitId}`)).body;
    expect(older).not.toContain('image/avif');
    expect(older).toContain(`<source type="image/webp" srcset="${base}-480.webp 480w`);
    await t.db.updateTable('unidade_fotos').set({ formatos: 'avif,webp,jpg' }).where('id', '=', row!.id).execute();
    invalidateCatalogCache(t.app);
    for (const bad of [
      `${base}-480.png`,
      `/fotos/unidades/${unitId}/0000000000000000-480.jpg`,
      `/fotos/unidades/${unitId}/..%2F..%2Fx-480.jpg`,
      `/fotos/unidades/abc/${row!.hash}-480.jpg`,
      `${base}-481.jpg`,
    ]) {
      expect((await t.app.inject(bad)).statusCode, bad).toBe(404);
    }
  });

  it('keeps the form and explains a missing alt text, a non-image and a file over 10 MB', async () => {
    const noAlt = await upload('', await jpeg(20));
    expect(noAlt.statusCode).toBe(422);
    expect(noAlt.body).toContain('Descreva a foto em poucas palavras');
    expect(noAlt.body).toContain('data-error-summary');
    const svg = await upload('Logo', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), admin, 'image/svg+xml');
    expect(svg.statusCode).toBe(422);
    expect(svg.body).toContain('Envie apenas fotos JPEG, PNG ou WebP.');
    expect(svg.body).toContain('value="Logo"');
    const huge = await upload('Grande demais', Buffer.concat([await jpeg(30), Buffer.alloc(11 * 1024 * 1024)]));
    expect(huge.statusCode).toBe(413);
    expect(huge.body).toContain('passa de 10 MB');
    expect((await photos()).length).toBe(1);
  });

  it('refuses the same photo twice and keeps the first one’s files', async () => {
    const again = await upload('A mesma foto de novo', await jpeg(10, 2000, 1250, true));
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain('Esta foto já está entre as fotos da unidade.');
    const [row] = await photos();
    expect(await photos()).toHaveLength(1);
    for (const name of [`${row!.hash}-480.webp`, `${row!.hash}-1440.jpg`]) {
      expect((await t.app.inject(`/fotos/unidades/${unitId}/${name}`)).statusCode, name).toBe(200);
    }
  });

  it('edits the alt text, orders the photos and removes one (files too)', async () => {
    await upload('Área de cardio com esteiras', await jpeg(60));
    await upload('Estúdio de aulas coletivas', await jpeg(90, 800, 600));
    let rows = await photos();
    expect(rows.map((r) => r.alt)).toEqual([
      'Sala de musculação com janelas amplas',
      'Área de cardio com esteiras',
      'Estúdio de aulas coletivas',
    ]);
    // a small original is never enlarged: its widths are 480 and 800
    const small = rows[2]!;
    expect((await t.app.inject(`/fotos/unidades/${unitId}/${small.hash}-800.jpg`)).statusCode).toBe(200);
    expect((await t.app.inject(`/fotos/unidades/${unitId}/${small.hash}-1440.jpg`)).statusCode).toBe(404);

    expect((await act(small.id, { acao: 'subir' })).statusCode).toBe(303);
    expect((await act(small.id, { acao: 'subir' })).statusCode).toBe(303);
    rows = await photos();
    expect(rows[0]!.id).toBe(small.id);
    expect((await act(small.id, { acao: 'descer' })).statusCode).toBe(303);
    expect((await photos())[1]!.id).toBe(small.id);

    expect((await act(small.id, { acao: 'alt', alt: '  Estúdio   com espelhos ' })).statusCode).toBe(303);
    expect((await photos())[1]!.alt).toBe('Estúdio com espelhos');
    const bad = await act(small.id, { acao: 'alt', alt: 'x' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain(`id="alt-${small.id}"`);
    const badJson = await act(small.id, { acao: 'alt', alt: 'x' }, { accept: 'application/json' });
    expect(badJson.statusCode).toBe(422);
    expect(badJson.json()).toMatchObject({
      error: 'Dados inválidos',
      message: expect.any(String),
      errors: { alt: expect.any(String) },
    });

    expect((await act(small.id, { acao: 'remover' })).statusCode).toBe(303);
    expect((await photos()).map((r) => r.id)).not.toContain(small.id);
    expect(
      await t.db.selectFrom('unidade_fotos_arquivos').select('chave').where('foto_id', '=', small.id).execute(),
    ).toEqual([]);
    expect(await t.app.storage.get(`unidade_fotos/${unitId}/${small.hash}-480.jpg`)).toBeNull();
    expect((await act(small.id, { acao: 'remover' })).statusCode).toBe(404);
    expect((await act(small.id, { acao: 'girar' })).statusCode).toBe(400);
  });

  it('accepts at most 8 photos per unit', async () => {
    let n = (await photos()).length;
    while (n < 8) {
      expect((await upload(`Foto número ${n + 1}`, await jpeg(100 + n * 10, 640, 480))).statusCode).toBe(303);
      n++;
    }
    const ninth = await upload('Foto nove', await jpeg(250, 640, 480));
    expect(ninth.statusCode).toBe(422);
    expect(ninth.body).toContain('até 8 fotos');
    expect((await photos()).length).toBe(8);
    const screen = await t.app.inject({ url: path(), headers: { cookie: admin } });
    expect(screen.body).toContain('Esta unidade já tem 8 fotos');
  });

  it('only admins: a unit manager gets 403, a visitor the login page', async () => {
    const m = await createStaffUser(t.db, { papel: 'gerente', unidadeIds: [unitId] });
    const cookie = await loginAs(t.app, m.email, m.password);
    expect((await t.app.inject({ url: path(), headers: { cookie } })).statusCode).toBe(403);
    expect((await t.app.inject(path())).statusCode).toBe(303);
  });

  it('an inactive unit’s photos are not served', async () => {
    const [row] = await photos();
    await t.db.updateTable('unidades').set({ ativo: 0 }).where('id', '=', unitId).execute();
    invalidateCatalogCache(t.app);
    expect((await t.app.inject(`/fotos/unidades/${unitId}/${row!.hash}-480.jpg`)).statusCode).toBe(404);
    await t.db.updateTable('unidades').set({ ativo: 1 }).where('id', '=', unitId).execute();
    invalidateCatalogCache(t.app);
  });
});

describe('formats', () => {
  it('drops the AVIF copies when they are clearly larger than the WebP ones', () => {
    expect(formatsToKeep({ avif: 90_000, webp: 120_000, jpg: 200_000 })).toEqual(['avif', 'webp', 'jpg']);
    expect(formatsToKeep({ avif: 140_000, webp: 120_000, jpg: 200_000 })).toEqual(['webp', 'jpg']);
    // tiny files: AVIF's fixed overhead is no reason to drop it
    expect(formatsToKeep({ avif: 11_500, webp: 10_000, jpg: 30_000 })).toEqual(['avif', 'webp', 'jpg']);
    expect(photoFormats({ formatos: 'webp,jpg' })).toEqual(['webp', 'jpg']);
    expect(photoFormats({ formatos: 'jpg,avif,webp' })).toEqual(['avif', 'webp', 'jpg']);
  });
});

describe('demo photos', () => {
  it('draws photos for units without any, nothing fetched', async () => {
    const other = (
      await t.db.selectFrom('unidades').select('id').where('nome', '=', 'Movimento Moema').executeTakeFirstOrThrow()
    ).id;
    const added = await seedDemoPhotos(t.db, t.app.storage, 2, [other, unitId]);
    expect(added).toBe(2); // Pinheiros already has photos
    const seeded = await t.db.selectFrom('unidade_fotos').select('formatos').where('unidade_id', '=', other).execute();
    expect(seeded.map((p) => p.formatos)).toEqual(['avif,webp,jpg', 'avif,webp,jpg']);
    invalidateCatalogCache(t.app);
    const html = (await t.app.inject(`/Detalhes.php?id=${other}`)).body;
    expect(html).toMatch(
      new RegExp(
        'alt="(Área de musculação com halteres e bancos|Esteiras e bicicletas na área de cardio|' +
          'Estúdio de aulas coletivas com colchonetes)"',
      ),
    );
  });
});
