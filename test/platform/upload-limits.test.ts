// The upload path under hostile or simply large input: phone
// photos up to 50 MP accepted, bigger ones and decompression bombs refused from the header,
// at most two decodes at once, and every malformed or oversized body refused with a pt-BR
// 4xx — nothing stored and no file left (storage nor spool), on either engine.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeGate } from '../../src/platform/storage/images';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm } from '../helpers/http';
import { storedFiles } from '../helpers/storage';
import {
  FALE_AQUI_FORM,
  FALE_AQUI_POST,
  jpegBomb,
  multipartBody,
  nextAddress,
  pngBomb,
  postMessage,
} from '../helpers/upload';

let t: TestContext;
let unitId: number;
beforeAll(async () => {
  t = await createTestApp();
  unitId = (
    await t.db.selectFrom('unidades').select('id').where('ativo', '=', 1).orderBy('id').executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => t?.close());

const fields = () => ({ nome_completo: 'Rita', unidade_id: String(unitId), unidade: '', mensagem: 'Foto do aparelho' });

async function state() {
  const n = async (table: 'fale_aqui' | 'fale_aqui_arquivos') =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { mensagens: await n('fale_aqui'), arquivos: await n('fale_aqui_arquivos'), files: await storedFiles(t) };
}

/** A flat photo of the given size (fast to make; decoding costs the same as a real one). */
const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#7a8a9a' }, limitInputPixels: false })
    .jpeg({ quality: 80 })
    .toBuffer();

describe('image size', () => {
  it('accepts a 48-megapixel phone photo and stores it at most 2048 px on its longest side', async () => {
    const before = await state();
    const res = await postMessage(t.app, fields(), [
      { name: 'IMG_4800.jpg', type: 'image/jpeg', data: await photo(8000, 6000) },
    ]);
    expect(res.statusCode).toBe(303);
    const row = await t.db.selectFrom('fale_aqui_arquivos').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tipo: 'image/jpeg', largura: 2048, altura: 1536, nome_original: 'IMG_4800.jpg' });
    expect((await state()).arquivos).toBe(before.arquivos + 1);
  });

  it('refuses 51 megapixels from the header with a pt-BR field message: nothing stored, no file left', async () => {
    const before = await state();
    const res = await postMessage(
      t.app,
      fields(),
      [{ name: 'grande.jpg', type: 'image/jpeg', data: await photo(8500, 6000) }],
      { accept: 'application/json' },
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.arquivos).toBe(
      'grande.jpg: A imagem tem 51 megapixels; o máximo é 50 megapixels. Reduza a resolução e envie de novo.',
    );
    expect(await state()).toEqual(before);
  });

  it(`refuses decompression bombs (a PNG of 100000 × 100000 in 141 bytes, a JPEG announcing 65000 × 65000) before \
decoding`, async () => {
    const before = await state();
    for (const [name, type, data, mp] of [
      ['bomba.png', 'image/png', pngBomb(), '10.000'],
      ['bomba.jpg', 'image/jpeg', await jpegBomb(), '4.225'],
    ] as const) {
      const peak = decodeGate.peak;
      const started = Date.now();
      const res = await postMessage(t.app, fields(), [{ name, type, data }], { accept: 'application/json' });
      expect(res.statusCode, name).toBe(422);
      expect(res.json().errors.arquivos, name).toBe(
        `${name}: A imagem tem ${mp} megapixels; o máximo é 50 megapixels. Reduza a resolução e envie de novo.`,
      );
      // refused from the header: fast, and no decode slot was ever taken for it
      expect(Date.now() - started).toBeLessThan(2000);
      expect(decodeGate.peak).toBe(peak);
    }
    expect(await state()).toEqual(before);
  });

  it('decodes at most two images at once; the others wait their turn and are all stored', async () => {
    const before = await state();
    const big = await photo(6000, 4000);
    decodeGate.resetPeak();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        postMessage(t.app, fields(), [{ name: `foto-${i}.jpg`, type: 'image/jpeg', data: big }]),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(303));
    expect(decodeGate.peak).toBe(2);
    expect(decodeGate.active).toBe(0);
    expect(decodeGate.waiting).toBe(0);
    expect((await state()).arquivos).toBe(before.arquivos + 6);
  });
});

describe('hostile bodies on the upload path', () => {
  async function raw(payload: Buffer | string, contentType: string, withCookie = true) {
    const { cookie } = await fetchForm(t.app, FALE_AQUI_FORM, '_token');
    return t.app.inject({
      method: 'POST',
      url: FALE_AQUI_POST,
      remoteAddress: nextAddress(),
      headers: { ...(withCookie ? { cookie } : {}), 'content-type': contentType, accept: 'application/json' },
      payload,
    });
  }
  async function tokenBody(extra: [string, string][], files: Parameters<typeof multipartBody>[1] = []) {
    const { token, cookie } = await fetchForm(t.app, FALE_AQUI_FORM, '_token');
    const body = await multipartBody([['_token', token], ...Object.entries(fields()), ...extra], files);
    return { ...body, cookie };
  }
  const send = (b: { payload: Buffer; contentType: string; cookie: string }) =>
    t.app.inject({
      method: 'POST',
      url: FALE_AQUI_POST,
      remoteAddress: nextAddress(),
      headers: { cookie: b.cookie, 'content-type': b.contentType, accept: 'application/json' },
      payload: b.payload,
    });

  it('a JSON body or plain text to the form: 415 with a pt-BR message', async () => {
    const before = await state();
    const json = await raw(JSON.stringify({ ...fields(), _token: 'x' }), 'application/json');
    expect(json.statusCode).toBe(415);
    // The form kit refuses a JSON body for every form before the upload reader runs (decision 083).
    expect(json.json().message).toMatch(/(aceita|recebe) apenas formulários/);
    const text = await raw('mensagem=oi', 'text/plain');
    expect(text.statusCode).toBe(415);
    expect(await state()).toEqual(before);
  });

  it(`malformed multipart (cut in the middle of a photo, no boundary, garbage): 400 with a pt-BR message, no spool \
file left`, async () => {
    const before = await state();
    const good = await tokenBody([], [{ name: 'a.jpg', type: 'image/jpeg', data: await photo(400, 300) }]);
    const cut = await send({ ...good, payload: good.payload.subarray(0, good.payload.length - 200) });
    expect(cut.statusCode).toBe(400);
    expect(cut.json().message).toMatch(/chegou incompleto ou corrompido/);
    const noBoundary = await raw('--x\r\n', 'multipart/form-data');
    expect(noBoundary.statusCode).toBeGreaterThanOrEqual(400);
    expect(noBoundary.statusCode).toBeLessThan(500);
    const garbage = await raw(
      Buffer.from('\x00\x01garbage without any boundary line'),
      'multipart/form-data; boundary=----abc',
    );
    expect(garbage.statusCode).toBe(400);
    expect(await state()).toEqual(before);
  });

  it('too many fields, or one field over 64 KB: 413 with a pt-BR message', async () => {
    const before = await state();
    const many = await tokenBody(Array.from({ length: 60 }, (_, i) => [`extra${i}`, 'x'] as [string, string]));
    const resMany = await send(many);
    expect(resMany.statusCode).toBe(413);
    expect(resMany.json().message).toMatch(/mais de 40 campos/);
    const huge = await tokenBody([['comentario', 'a'.repeat(70 * 1024)]]);
    const resHuge = await send(huge);
    expect(resHuge.statusCode).toBe(413);
    expect(resHuge.json().message).toMatch(/passou de 64 KB/);
    expect(await state()).toEqual(before);
  });

  it('too many file parts: 422 "no máximo 2 fotos", even when the extra parts are huge', async () => {
    const before = await state();
    const small = await photo(50, 50);
    const b = await tokenBody(
      [],
      [1, 2, 3, 4, 5].map((i) => ({ name: `${i}.jpg`, type: 'image/jpeg', data: small })),
    );
    const res = await send(b);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.arquivos).toBe('Envie no máximo 2 fotos.');
    expect(await state()).toEqual(before);
  });

  it('a file whose content is not what its name says: 422 naming the file', async () => {
    const before = await state();
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    for (const [name, message] of [
      ['foto.jpg', /O nome diz JPEG, mas o conteúdo é PNG/],
      ['foto.gif', /não é de uma foto JPEG, PNG ou WebP, mas o conteúdo é PNG/],
      ['documento.pdf', /não é de uma foto JPEG, PNG ou WebP/],
    ] as const) {
      const res = await postMessage(t.app, fields(), [{ name, type: 'image/png', data: png }], {
        accept: 'application/json',
      });
      expect(res.statusCode, name).toBe(422);
      expect(res.json().errors.arquivos, name).toMatch(new RegExp(`^${name.replace('.', '\\.')}: `));
      expect(res.json().errors.arquivos, name).toMatch(message);
    }
    // no extension, or an extension that names nothing: judged by content alone
    expect(
      (await postMessage(t.app, fields(), [{ name: 'foto', type: 'application/octet-stream', data: png }])).statusCode,
    ).toBe(303);
    const after = await state();
    expect(after.arquivos).toBe(before.arquivos + 1);
  });

  it('keeps the client file name only as a label: path parts removed, cut to 255 characters', async () => {
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const long = `${'ç'.repeat(300)}.png`;
    for (const [name, label] of [
      ['C:\\Users\\ana\\Desktop\\foto.png', 'foto.png'],
      ['../../../etc/cron.d/x.png', 'x.png'],
      [long, 'ç'.repeat(255)],
    ] as const) {
      const res = await postMessage(t.app, fields(), [{ name, type: 'image/png', data: png }]);
      expect(res.statusCode, name).toBe(303);
      const row = await t.db
        .selectFrom('fale_aqui_arquivos')
        .select(['nome_original', 'caminho'])
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(row.nome_original).toBe(label);
      expect(row.caminho).toMatch(/^fale_aqui\/\d{4}\/\d{2}\/[0-9a-f]{32}\.png$/);
    }
  });
});
