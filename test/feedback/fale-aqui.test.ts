import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDueMail } from '../../src/platform/mail/worker';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm } from '../helpers/http';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { readStored, storedFiles } from '../helpers/storage';
import { awayFromWindowEnd } from '../helpers/rate-window';

const FORM = '/NPS/nps_app_php/fale_aqui.php';
const POST = '/NPS/nps_app_php/salvar_fale_aqui.php';
const NOTIFY = 'avisos@academia.example';

let t: TestContext;
let smtp: TestSmtp;
let unit: { id: number; nome: string };
let inactiveUnitId: number;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({
    env: { ...smtp.env, NOTIFICATION_EMAIL: NOTIFY, MAIL_FROM: 'Academia <nao-responda@academia.example>' },
  });
  const units = await t.db.selectFrom('unidades').select(['id', 'nome', 'ativo']).orderBy('id').execute();
  unit = units.find((u) => u.ativo === 1)!;
  inactiveUnitId = units.find((u) => u.ativo === 0)!.id;
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

// Each POST from its own address: the route is rate limited per address (10 a minute).
let ipCounter = 0;
const nextIp = () => `10.44.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;

interface FilePart {
  name: string;
  type: string;
  data: Buffer;
}

async function multipart(fields: Record<string, string>, files: FilePart[] = []) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const f of files) fd.append('arquivos[]', new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
  const res = new Response(fd);
  return { payload: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type')! };
}

async function openForm() {
  return fetchForm(t.app, FORM, '_token');
}

async function send(
  fields: Record<string, string>,
  files: FilePart[] = [],
  opts: { cookie?: string; accept?: string } = {},
) {
  const { token, cookie } = await openForm();
  const body = await multipart({ _token: token, ...fields }, files);
  if (fields._token === '') delete (fields as Record<string, string>)._token;
  return t.app.inject({
    method: 'POST',
    url: POST,
    remoteAddress: nextIp(),
    headers: {
      cookie: opts.cookie ?? cookie,
      'content-type': body.contentType,
      ...(opts.accept ? { accept: opts.accept } : {}),
    },
    payload: body.payload,
  });
}

async function state() {
  const n = async (table: 'fale_aqui' | 'fale_aqui_arquivos' | 'fila_emails') =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    mensagens: await n('fale_aqui'),
    arquivos: await n('fale_aqui_arquivos'),
    emails: await n('fila_emails'),
    files: await storedFiles(t),
  };
}

const base = () => ({
  nome_completo: 'Carla Souza',
  unidade_id: String(unit.id),
  unidade: '',
  mensagem: 'A esteira 4 está parada.',
});

async function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 20, channels: 3, background: '#c03030' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'CameraMarcaTeste', Model: 'ModeloXYZ' },
      IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '23/1 33/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '46/1 38/1 0/1' },
    })
    .toBuffer();
}
const png = () =>
  sharp({ create: { width: 30, height: 30, channels: 4, background: '#3060c0' } })
    .png()
    .toBuffer();
const webp = () =>
  sharp({ create: { width: 25, height: 35, channels: 3, background: '#30c060' } })
    .webp()
    .toBuffer();

describe('free-message form page', () => {
  it('renders a multipart form with the token, the unit picker, the counter and the file input', async () => {
    const res = await t.app.inject(FORM);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('enctype="multipart/form-data"');
    expect(res.body).toContain('name="_token"');
    expect(res.body).toContain('<select id="unidade_id" name="unidade_id"');
    expect(res.body).toContain(`data-nome="${unit.nome}"`);
    expect(res.body).not.toContain('name="unidade"'); // the free-text unit left the form
    expect(res.body).toContain('name="contato_email"');
    expect(res.body).toContain('name="arquivos[]"');
    expect(res.body).toContain('accept="image/jpeg,image/png,image/webp"');
    expect(res.body).toContain('/assets/feedback-fale-aqui.js');
    expect(res.body).toContain('0/3000');
  });
});

describe('free-message submission', () => {
  it(`stores a named message without images, fills unidade from unidade_id, 303 to obrigado.php, queues one \
mail`, async () => {
    const before = await state();
    const res = await send(base());
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/NPS/nps_app_php/obrigado.php');
    const after = await state();
    expect(after.mensagens).toBe(before.mensagens + 1);
    expect(after.arquivos).toBe(before.arquivos);
    expect(after.emails).toBe(before.emails + 1);
    const row = await t.db.selectFrom('fale_aqui').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      unidade_id: unit.id,
      unidade: unit.nome,
      nome_completo: 'Carla Souza',
      anonimo: 0,
      status: 'nova',
      mensagem: 'A esteira 4 está parada.',
    });
  });

  it('stores an empty name as anonymous', async () => {
    const res = await send({ ...base(), nome_completo: '   ', unidade: 'Texto livre da unidade' });
    expect(res.statusCode).toBe(303);
    const row = await t.db.selectFrom('fale_aqui').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      nome_completo: 'Anônimo',
      anonimo: 1,
      unidade: 'Texto livre da unidade',
      unidade_id: unit.id,
    });
  });

  it('accepts a unit typed by hand without unidade_id', async () => {
    const res = await send({ nome_completo: '', unidade_id: '', unidade: 'Unidade da praia', mensagem: 'Olá' });
    expect(res.statusCode).toBe(303);
    const row = await t.db.selectFrom('fale_aqui').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ unidade_id: null, unidade: 'Unidade da praia' });
  });

  it('takes exactly 3000 characters (after trim and NFC) and refuses 3001', async () => {
    const decomposed = 'c\u0327'; // "ç" in NFD: two code points, one after NFC
    const exact = decomposed + 'a'.repeat(2999);
    expect((await send({ ...base(), mensagem: `  ${exact}  ` })).statusCode).toBe(303);
    const row = await t.db.selectFrom('fale_aqui').select('mensagem').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect([...row.mensagem]).toHaveLength(3000);
    expect(row.mensagem.startsWith('ç')).toBe(true);
    const before = await state();
    const res = await send({ ...base(), mensagem: 'b'.repeat(3001) });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('no máximo 3000 caracteres');
    expect(await state()).toEqual(before);
  });

  it('refuses missing message and unit, and an inactive or unknown unidade_id, keeping the values', async () => {
    const before = await state();
    const empty = await send({ nome_completo: 'Dora', unidade_id: '', unidade: '', mensagem: '   ' }, [], {
      accept: 'application/json',
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({
      mensagem: 'Escreva sua mensagem.',
      unidade_id: 'Escolha a sua unidade na lista.',
    });
    for (const id of [String(inactiveUnitId), '999999', 'abc']) {
      const res = await send({ ...base(), unidade_id: id, unidade: 'Qualquer', nome_completo: 'Dora <script>' });
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain('Escolha uma unidade ativa da lista.');
      expect(res.body).toContain('value="Dora &lt;script>"');
      expect(res.body).toContain('A esteira 4 está parada.');
    }
    expect(await state()).toEqual(before);
  });

  it('refuses a missing or wrong token with 403: nothing stored, no file left', async () => {
    const before = await state();
    const body = await multipart(base(), [{ name: 'a.png', type: 'image/png', data: await png() }]);
    const { cookie, token } = await openForm();
    const missing = await t.app.inject({
      method: 'POST',
      url: POST,
      remoteAddress: nextIp(),
      headers: { cookie, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(missing.statusCode).toBe(403);
    expect(missing.body).toContain(FORM);
    const wrongBody = await multipart({ _token: `${token}x`, ...base() });
    const wrong = await t.app.inject({
      method: 'POST',
      url: POST,
      remoteAddress: nextIp(),
      headers: { cookie, 'content-type': wrongBody.contentType },
      payload: wrongBody.payload,
    });
    expect(wrong.statusCode).toBe(403);
    const noCookieBody = await multipart({ _token: token, ...base() });
    const noCookie = await t.app.inject({
      method: 'POST',
      url: POST,
      remoteAddress: nextIp(),
      headers: { 'content-type': noCookieBody.contentType },
      payload: noCookieBody.payload,
    });
    expect(noCookie.statusCode).toBe(403);
    expect(await state()).toEqual(before);
  });

  it('stores 1 and 2 images re-encoded, under fale_aqui/YYYY/MM with random names, one row each', async () => {
    const before = await state();
    const one = await send(base(), [{ name: 'foto.png', type: 'image/png', data: await png() }]);
    expect(one.statusCode).toBe(303);
    const two = await send(base(), [
      { name: '../../etc/passwd\u202e.webp', type: 'image/webp', data: await webp() },
      { name: 'IMG_0001.JPG', type: 'image/jpeg', data: await jpegWithGps() },
    ]);
    expect(two.statusCode).toBe(303);
    const after = await state();
    expect(after.mensagens).toBe(before.mensagens + 2);
    expect(after.arquivos).toBe(before.arquivos + 3);
    const rows = await t.db.selectFrom('fale_aqui_arquivos').selectAll().orderBy('id', 'desc').limit(3).execute();
    const month = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit' })
      .format(new Date())
      .replace('-', '/');
    for (const r of rows) {
      expect(r.caminho).toMatch(new RegExp(`^fale_aqui/${month}/[0-9a-f]{32}\\.(jpg|png|webp)$`));
      expect(after.files).toContain(t.app.storage.driver === 'database' ? `db:${r.caminho}` : r.caminho);
      const bytes = await readStored(t, r.caminho);
      expect(bytes.length).toBe(r.tamanho);
      const meta = await sharp(bytes).metadata();
      expect({ w: meta.width, h: meta.height }).toEqual({ w: r.largura, h: r.altura });
      expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    const [jpg, wp, pn] = rows;
    // auto-rotated
    expect(jpg).toMatchObject({ tipo: 'image/jpeg', nome_original: 'IMG_0001.JPG', largura: 20, altura: 40 });
    expect(wp).toMatchObject({ tipo: 'image/webp', nome_original: 'passwd.webp' });
    expect(pn).toMatchObject({ tipo: 'image/png', nome_original: 'foto.png', largura: 30, altura: 30 });
    // nothing but the stored files (no temporary leftovers)
    expect(after.files.length).toBe(before.files.length + 3);
  });

  it('strips EXIF: GPS position and camera data do not survive', async () => {
    const original = await jpegWithGps();
    const originalMeta = await sharp(original).metadata();
    expect(originalMeta.exif).toBeDefined();
    // the GPS IFD pointer (tag 0x8825) and the camera make are in the original
    expect(
      originalMeta.exif!.includes(Buffer.from([0x88, 0x25])) || originalMeta.exif!.includes(Buffer.from([0x25, 0x88])),
    ).toBe(true);
    expect(original.includes('CameraMarcaTeste')).toBe(true);

    expect((await send(base(), [{ name: 'gps.jpg', type: 'image/jpeg', data: original }])).statusCode).toBe(303);
    const row = await t.db.selectFrom('fale_aqui_arquivos').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    const bytes = await readStored(t, row.caminho);
    const stored = await sharp(bytes).toBuffer();
    const meta = await sharp(bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(bytes.includes('Exif\0\0')).toBe(false);
    expect(bytes.includes('CameraMarcaTeste')).toBe(false);
    expect(bytes.includes('ModeloXYZ')).toBe(false);
    expect(stored.length).toBeGreaterThan(0);
  });

  it('ignores a file sent under another field name', async () => {
    const before = await state();
    const { token, cookie } = await openForm();
    const fd = new FormData();
    for (const [k, v] of Object.entries({ _token: token, ...base() })) fd.append(k, v);
    fd.append('outro', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'x.png');
    const body = new Response(fd);
    const res = await t.app.inject({
      method: 'POST',
      url: POST,
      remoteAddress: nextIp(),
      headers: { cookie, 'content-type': body.headers.get('content-type')! },
      payload: Buffer.from(await body.arrayBuffer()),
    });
    expect(res.statusCode).toBe(303);
    const after = await state();
    expect(after.mensagens).toBe(before.mensagens + 1);
    expect(after.arquivos).toBe(before.arquivos);
    expect(after.files).toEqual(before.files);
  });

  it('limits POSTs per address (10 a minute) with a pt-BR 429', async () => {
    await awayFromWindowEnd(60_000);
    const before = await state();
    const { cookie } = await openForm();
    const body = await multipart(base());
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: POST,
        remoteAddress: '10.99.0.1',
        headers: { cookie, 'content-type': body.contentType },
        payload: body.payload,
      });
      statuses.push(res.statusCode);
      if (i === 10) expect(res.body).toContain('Muitas tentativas');
    }
    expect(statuses.slice(0, 10).every((s) => s === 403)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(await state()).toEqual(before);
  });

  it('refuses a third image: 422, nothing stored, no file left', async () => {
    const before = await state();
    const res = await send(base(), [
      { name: 'a.png', type: 'image/png', data: await png() },
      { name: 'b.png', type: 'image/png', data: await png() },
      { name: 'c.png', type: 'image/png', data: await png() },
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('no máximo 2 fotos');
    expect(res.body).toContain('A esteira 4 está parada.');
    expect(await state()).toEqual(before);
  });

  it('refuses a file over 20 MB with 413 and a clear message: nothing stored, no file left', async () => {
    const before = await state();
    const big = Buffer.alloc(20 * 1024 * 1024 + 1, 0x41);
    big[0] = 0xff;
    big[1] = 0xd8;
    big[2] = 0xff;
    const res = await send(base(), [{ name: 'grande.jpg', type: 'image/jpeg', data: big }]);
    expect(res.statusCode).toBe(413);
    expect(res.body).toContain('no máximo 20 MB');
    const json = await send(base(), [{ name: 'grande.jpg', type: 'image/jpeg', data: big }], {
      accept: 'application/json',
    });
    expect(json.statusCode).toBe(413);
    expect(json.json().errors.arquivos).toMatch(/20 MB/);
    expect(await state()).toEqual(before);
  });

  it(`refuses a text file named .jpg, an SVG with a script, a JPEG/HTML polyglot and a huge-pixel PNG, even next to \
a good image`, async () => {
    const before = await state();
    const hugePng = await sharp({
      create: { width: 10000, height: 5100, channels: 3, background: '#ffffff' },
      limitInputPixels: false,
    })
      .png()
      .toBuffer();
    expect(hugePng.length).toBeLessThan(10 * 1024 * 1024);
    const polyglot = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
      Buffer.from('<html><script>alert(1)</script></html>'),
    ]);
    const cases: [FilePart, RegExp][] = [
      [
        { name: 'nota.jpg', type: 'image/jpeg', data: Buffer.from('isto é só um texto, não uma foto\n') },
        /JPEG, PNG ou WebP/,
      ],
      [
        {
          name: 'x.svg',
          type: 'image/svg+xml',
          data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        },
        /JPEG, PNG ou WebP/,
      ],
      [{ name: 'poly.jpg', type: 'image/jpeg', data: polyglot }, /Não conseguimos ler/],
      [{ name: 'enorme.png', type: 'image/png', data: hugePng }, /51 megapixels; o máximo é 50 megapixels/],
    ];
    for (const [file, message] of cases) {
      const res = await send(base(), [{ name: 'boa.png', type: 'image/png', data: await png() }, file], {
        accept: 'application/json',
      });
      expect(res.statusCode, file.name).toBe(422);
      expect(res.json().errors.arquivos, file.name).toMatch(message);
    }
    const page = await send(base(), [cases[1]![0]]);
    expect(page.statusCode).toBe(422);
    expect(page.body).toContain('aria-invalid="true"');
    expect(await state()).toEqual(before);
  });

  it('removes the files already written when the transaction fails', async () => {
    const before = await state();
    // The real service, storage and database, whose INSERTs fail (the database going away
    // between the file writes and the commit); reads still work.
    const { createFaleAquiService } = await import('../../src/features/feedback/messages/fale-aqui.service');
    const { createFaleAquiRepository } = await import('../../src/features/feedback/messages/fale-aqui.repository');
    const { transactional } = await import('../../src/db/transactional');
    const failingDb = t.db.withPlugin({
      transformQuery: (args) => {
        if (args.node.kind === 'InsertQueryNode') throw new Error('banco fora do ar');
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const service = createFaleAquiService({
      repo: transactional(failingDb, createFaleAquiRepository),
      storage: t.app.storage,
      notificationEmail: NOTIFY,
      publicUrl: t.config.publicUrl,
    });
    await expect(service.submit(base(), [{ label: 'a.png', data: await png() }])).rejects.toThrow('banco fora do ar');
    expect(await state()).toEqual(before);
  });

  it(`delivers the notification to NOTIFICATION_EMAIL only, through a real SMTP server, with unit, sender, message \
and photos`, async () => {
    // drain what earlier tests queued, then send one message with two photos
    await deliverDueMail({ db: t.db, config: t.config });
    smtp.messages.length = 0;
    const res = await send(
      { ...base(), nome_completo: '', mensagem: 'Bicicleta 2 quebrada\r\nBcc: intruso@example.com' },
      [
        { name: 'a.jpg', type: 'image/jpeg', data: await jpegWithGps() },
        { name: 'b.png', type: 'image/png', data: await png() },
      ],
    );
    expect(res.statusCode).toBe(303);
    const queued = await t.db.selectFrom('fila_emails').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(queued.destinatario).toBe(NOTIFY);
    expect(queued.origem).toMatch(/^fale_aqui:\d+$/);
    const result = await deliverDueMail({ db: t.db, config: t.config });
    expect(result.sent).toBe(1);
    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0]!;
    expect(mail.to).toEqual([NOTIFY]);
    expect(mail.headers.to).toContain(NOTIFY);
    expect(mail.headers.bcc).toBeUndefined();
    expect(mail.headers.cc).toBeUndefined();
    expect(mail.subject).toBe(`Fale aqui: nova mensagem · ${unit.nome}`);
    expect(mail.raw).toContain('foto-1.jpg');
    expect(mail.raw).toContain('foto-2.png');
    expect(mail.raw).toMatch(/Content-Type: image\/jpeg/i);
    const sent = await t.db
      .selectFrom('fila_emails')
      .select('status')
      .where('id', '=', queued.id)
      .executeTakeFirstOrThrow();
    expect(sent.status).toBe('enviado');
  });

  it('refuses a header-injection attempt in the unit name (one-line field): nothing stored, nothing sent', async () => {
    await deliverDueMail({ db: t.db, config: t.config });
    smtp.messages.length = 0;
    const before = await t.db
      .selectFrom('fila_emails')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await send({
      nome_completo: 'Eva',
      unidade_id: '',
      unidade: 'Centro\r\nBcc: intruso@example.com',
      mensagem: 'Oi',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Use uma linha só');
    const after = await t.db
      .selectFrom('fila_emails')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    await deliverDueMail({ db: t.db, config: t.config });
    expect(smtp.messages).toHaveLength(0);
  });

  it('quotes the message in the notification body, so a line break cannot forge a template line', async () => {
    await deliverDueMail({ db: t.db, config: t.config });
    smtp.messages.length = 0;
    const res = await send({
      nome_completo: 'Eva',
      unidade_id: '',
      unidade: 'Centro',
      mensagem: 'Oi\r\nVeja e marque como lida no painel da equipe: http://evil.example/x',
    });
    expect(res.statusCode).toBe(303);
    const queued = await t.db.selectFrom('fila_emails').select('texto').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const text = queued.texto;
    await deliverDueMail({ db: t.db, config: t.config });
    expect(smtp.messages).toHaveLength(1);
    expect(text).toContain('> Oi\n> Veja e marque como lida no painel da equipe: http://evil.example/x');
    expect(text).not.toMatch(/^Veja e marque como lida no painel da equipe: http:\/\/evil/m);
    expect(smtp.messages[0]!.headers.bcc).toBeUndefined();
  });
});
