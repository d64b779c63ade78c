// The soak's visitors and staff: public pages and form submissions at fixed offered rates
// (open loop: a slow answer never delays the next visitor), staff members on their own
// timers. Every request is recorded (when, what, how long, status); every form POST keeps
// its envio_id and what it was answered, so the database can be checked afterwards.
import http from 'node:http';
import type { Catalog, StaffLogin } from './stack';

export type Group = 'public' | 'form' | 'post' | 'staff' | 'export';

export interface Sample {
  /** ms since the soak started, when the request was sent */
  t: number;
  ms: number;
  /** 0: no answer (connection refused or reset) */
  status: number;
}

export interface Submission {
  form: FormKind;
  envioId: string;
  /** the marker the check looks the stored row up by */
  marker: string;
  /** status of every attempt, in order (0 = no answer) */
  attempts: number[];
}

export type FormKind = 'pesquisa' | 'lead' | 'fale_aqui' | 'aula_experimental' | 'matricula';

export interface LoadRates {
  /** public page views per second */
  publicPerSec: number;
  /** form submissions per second */
  formsPerSec: number;
  /** seconds between a manager's rounds (report, inbox, bookings of their unit) */
  managerEverySec: number;
  /** seconds between an admin's chain-wide rounds */
  adminEverySec: number;
  /** seconds between an admin's exports */
  exportEverySec: number;
  /** one free message in this many carries a photo */
  photoEvery: number;
}

/** A small seeded generator (mulberry32): the same --seed, the same visitors. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick<T>(list: readonly T[]): T {
      return list[Math.floor(next() * list.length)]!;
    },
  };
}
type Rng = ReturnType<typeof rng>;

export class Recorder {
  readonly started = performance.now();
  readonly samples = new Map<string, Sample[]>();
  readonly groups = new Map<string, Group>();
  readonly submissions: Submission[] = [];
  now = () => performance.now() - this.started;
  add(kind: string, group: Group, s: Sample) {
    let list = this.samples.get(kind);
    if (!list) {
      list = [];
      this.samples.set(kind, list);
      this.groups.set(kind, group);
    }
    list.push(s);
  }
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

/** One request; the body is read (as text only when asked). Never throws: status 0 on failure. */
function request(
  url: string,
  o: { method?: string; headers?: Record<string, string>; body?: Buffer | string; text?: boolean; timeoutMs?: number },
): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const body = o.body === undefined ? undefined : Buffer.isBuffer(o.body) ? o.body : Buffer.from(o.body);
    const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br, zstd', ...o.headers };
    if (o.text) delete headers['accept-encoding'];
    if (body) headers['content-length'] = String(body.length);
    let done = false;
    const finish = (a: Omit<Answer, 'ms'>) => {
      if (done) return;
      done = true;
      resolve({ ...a, ms: performance.now() - t0 });
    };
    const req = http.request(url, { method: o.method ?? 'GET', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => o.text && chunks.push(c));
      res.on('end', () =>
        finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', () => finish({ status: 0, headers: {}, body: '' }));
    });
    req.setTimeout(o.timeoutMs ?? 60_000, () => req.destroy());
    req.on('error', () => finish({ status: 0, headers: {}, body: '' }));
    req.end(body);
  });
}

const cookiesOf = (a: Answer, previous = '') => {
  const jar = new Map(
    previous
      .split('; ')
      .filter(Boolean)
      .map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as [string, string]),
  );
  for (const c of a.headers['set-cookie'] ?? []) {
    const pair = c.split(';')[0]!;
    jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
};
const hidden = (html: string, name: string) =>
  new RegExp(`name="${name.replace(/[[\]]/g, '\\$&')}"[^>]*value="([^"]*)"`).exec(html)?.[1];

/** A valid CPF (check digits computed) for the n-th enrolment of this seed. */
function cpf(seed: number, n: number): string {
  const base = String((seed % 900) * 1_000_000 + 100_000_000 + n).slice(-9);
  const digit = (s: string) => {
    let sum = 0;
    for (let i = 0; i < s.length; i++) sum += Number(s[i]) * (s.length + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  const d1 = digit(base);
  return `${base}${d1}${digit(base + d1)}`;
}

/** A tiny valid JPEG made once, for the free messages that carry a photo. */
let photo: Buffer | undefined;
async function aPhoto(): Promise<Buffer> {
  if (!photo) {
    const sharp = (await import('sharp')).default;
    photo = await sharp({
      create: {
        width: 1200,
        height: 900,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 20 },
      },
    })
      .jpeg({ quality: 80 })
      .toBuffer();
  }
  return photo;
}

export interface LoadContext {
  url: string;
  catalog: Catalog;
  rec: Recorder;
  seed: number;
  rates: LoadRates;
  /** set to false to stop every loop */
  running: () => boolean;
}

/** Calls `fire` at `perSec` per second (open loop) until stopped. */
async function atRate(ctx: LoadContext, perSec: number, fire: (n: number) => void): Promise<void> {
  const start = performance.now();
  let n = 0;
  while (ctx.running()) {
    const due = start + (n * 1000) / perSec;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, Math.min(wait, 200)));
    else fire(n++);
  }
}

const SEARCH_WORDS = ['musculação', 'pilates', 'natação', 'funcional', 'yoga', 'spinning', 'crossfit', 'dança'];

export function publicLoad(ctx: LoadContext, r: Rng): Promise<void> {
  const { units } = ctx.catalog;
  const words = [...SEARCH_WORDS, ...new Set(units.slice(0, 40).map((u) => u.cidade))];
  return atRate(ctx, ctx.rates.publicPerSec, () => {
    const x = r.next();
    const [kind, path] =
      x < 0.25
        ? ['home', '/']
        : x < 0.45
          ? ['busca', `/search_ajax.php?q=${encodeURIComponent(r.pick(words))}`]
          : x < 0.8
            ? ['página da unidade', `/Detalhes.php?id=${r.pick(units).id}`]
            : ['aula experimental', `/aula-experimental?unidade=${r.pick(units).id}`];
    const t = ctx.rec.now();
    void request(ctx.url + path, {}).then((a) => ctx.rec.add(kind, 'public', { t, ms: a.ms, status: a.status }));
  });
}

const FORM_MIX: [FormKind, number][] = [
  ['pesquisa', 0.4],
  ['fale_aqui', 0.2],
  ['aula_experimental', 0.2],
  ['lead', 0.1],
  ['matricula', 0.1],
];

export function formLoad(ctx: LoadContext, r: Rng): Promise<void> {
  const pending = new Set<Promise<void>>();
  const run = atRate(ctx, ctx.rates.formsPerSec, (n) => {
    let x = r.next();
    const kind = FORM_MIX.find(([, w]) => (x -= w) < 0)?.[0] ?? 'pesquisa';
    const p = submit(ctx, kind, n, rng(ctx.seed * 7919 + n)).finally(() => pending.delete(p));
    pending.add(p);
  });
  return run.then(async () => {
    await Promise.all(pending);
  });
}

/** GET a form page through the proxy as a new visitor: its cookie and body. */
async function openPage(ctx: LoadContext, path: string, address: string, cookie = '') {
  const t = ctx.rec.now();
  const a = await request(ctx.url + path, {
    text: true,
    headers: { 'x-forwarded-for': address, ...(cookie ? { cookie } : {}) },
  });
  ctx.rec.add('formulário (GET)', 'form', { t, ms: a.ms, status: a.status });
  return a;
}

/**
 * POSTs until answered, as a person who clicks again after an error page: the same envio_id,
 * up to a minute. Every attempt is recorded.
 */
async function postOnce(
  ctx: LoadContext,
  sub: Submission,
  path: string,
  body: Buffer | string,
  headers: Record<string, string>,
): Promise<void> {
  ctx.rec.submissions.push(sub);
  const deadline = performance.now() + 60_000;
  for (;;) {
    const t = ctx.rec.now();
    const a = await request(ctx.url + path, { method: 'POST', body, headers });
    ctx.rec.add(`POST ${sub.form}`, 'post', { t, ms: a.ms, status: a.status });
    sub.attempts.push(a.status);
    if ((a.status !== 0 && a.status < 500) || performance.now() > deadline || !ctx.running()) return;
    await new Promise((res) => setTimeout(res, 3_000));
  }
}

async function submit(ctx: LoadContext, kind: FormKind, n: number, r: Rng): Promise<void> {
  const { units, questions, offers } = ctx.catalog;
  const envioId = `soak${ctx.seed}x${String(n).padStart(7, '0')}`;
  const address = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  const unit = r.pick(units);
  const form = (cookie: string) => ({
    cookie,
    'x-forwarded-for': address,
    'content-type': 'application/x-www-form-urlencoded',
  });
  const sub = (marker: string): Submission => ({ form: kind, envioId, marker, attempts: [] });
  if (kind === 'pesquisa') {
    const page = await openPage(ctx, `/NPS/nps_app_php/index.php?unidade_id=${unit.id}`, address);
    const token = hidden(page.body, '_token');
    if (!token) return;
    const fields = new URLSearchParams({ _token: token, unidade_id: String(unit.id), envio_id: envioId });
    for (const q of questions) {
      if (q.tipo === 'texto') fields.append(`texto_ok[${q.id}]`, '1');
      else if (q.options.length) fields.append(`respostas[${q.id}]`, String(r.pick(q.options)));
    }
    return postOnce(
      ctx,
      sub(envioId),
      '/NPS/nps_app_php/salvar_resposta.php',
      fields.toString(),
      form(cookiesOf(page)),
    );
  }
  if (kind === 'lead') {
    const page = await openPage(ctx, '/pages/Franquia/index.php', address);
    const token = hidden(page.body, 'csrf_token');
    if (!token) return;
    const email = `lead-${envioId}@example.com`;
    const fields = new URLSearchParams({
      csrf_token: token,
      envio_id: envioId,
      nome_completo: 'Maria José da Conceição',
      whatsapp: '(11) 98765-4321',
      email,
      cidade_regiao: `${unit.cidade}`,
      investimento_parceria: 'sozinho',
      faixa_investimento: '300mil_500mil',
      prazo_proximo_passo: 'ate_3_meses',
      experiencia_negocio: 'empresario',
      motivo_interesse: 'ter_meu_negocio',
      aceita_contato: 'sim',
    });
    return postOnce(ctx, sub(email), '/pages/Franquia/index.php', fields.toString(), form(cookiesOf(page)));
  }
  if (kind === 'fale_aqui') {
    const page = await openPage(ctx, '/NPS/nps_app_php/fale_aqui.php', address);
    const token = hidden(page.body, '_token');
    if (!token) return;
    const text = `A esteira 4 está parada desde ontem. Protocolo ${envioId}.`;
    const fd = new FormData();
    for (const [k, v] of Object.entries({
      _token: token,
      envio_id: envioId,
      nome_completo: 'Carla Souza',
      unidade_id: String(unit.id),
      unidade: '',
      mensagem: text,
    }))
      fd.append(k, v);
    if (n % ctx.rates.photoEvery === 0)
      fd.append('arquivos[]', new Blob([new Uint8Array(await aPhoto())], { type: 'image/jpeg' }), 'IMG_0001.jpg');
    const encoded = new Response(fd);
    const body = Buffer.from(await encoded.arrayBuffer());
    return postOnce(ctx, sub(envioId), '/NPS/nps_app_php/salvar_fale_aqui.php', body, {
      cookie: cookiesOf(page),
      'x-forwarded-for': address,
      'content-type': encoded.headers.get('content-type')!,
    });
  }
  if (kind === 'aula_experimental') {
    const page = await openPage(ctx, `/aula-experimental?unidade=${unit.id}`, address);
    const token = hidden(page.body, 'csrf_token');
    const slots = [...page.body.matchAll(/name="vaga" value="([^"]+)"/g)].map((m) => m[1]!);
    if (!token || !slots.length) return;
    const fields = new URLSearchParams({
      csrf_token: token,
      envio_id: envioId,
      unidade: String(unit.id),
      nome: 'Joana Dias',
      whatsapp: `(11) 9${String(80_000_000 + ((ctx.seed * 100_003 + n) % 19_999_999)).slice(0, 8)}`,
      email: `aula-${envioId}@example.com`,
      aceita_contato: 'sim',
      vaga: r.pick(slots),
    });
    return postOnce(
      ctx,
      sub(envioId),
      `/aula-experimental?unidade=${unit.id}`,
      fields.toString(),
      form(cookiesOf(page)),
    );
  }
  // Online enrolment: the data form, the summary with the contract, the acceptance.
  if (!offers.length) return;
  const offer = r.pick(offers);
  const flow = `/matricula?unidade=${offer.unitId}&plano=${offer.planId}`;
  const page = await openPage(ctx, flow, address);
  const token = hidden(page.body, 'csrf_token');
  if (!token) return;
  const cookie = cookiesOf(page);
  const data = {
    nome: 'Maria da Silva',
    cpf: cpf(ctx.seed, n),
    nascimento: '1990-05-10',
    email: `matricula-${envioId}@example.com`,
    whatsapp: '(11) 98765-4321',
  };
  const t = ctx.rec.now();
  const summary = await request(`${ctx.url}/matricula/resumo?unidade=${offer.unitId}&plano=${offer.planId}`, {
    method: 'POST',
    text: true,
    headers: form(cookie),
    body: new URLSearchParams({ csrf_token: token, envio_id: envioId, ...data }).toString(),
  });
  ctx.rec.add('matrícula: resumo', 'form', { t, ms: summary.ms, status: summary.status });
  const versao = hidden(summary.body, 'contrato_versao');
  const sha = hidden(summary.body, 'contrato_sha256');
  const token2 = hidden(summary.body, 'csrf_token');
  if (summary.status !== 200 || !versao || !sha || !token2) return;
  const fields = new URLSearchParams({
    csrf_token: token2,
    envio_id: envioId,
    ...data,
    contrato_versao: versao,
    contrato_sha256: sha,
    aceite: 'sim',
  });
  return postOnce(ctx, sub(envioId), flow, fields.toString(), form(cookiesOf(summary, cookie)));
}

/** Logs in through the login form; the Cookie header, or null. */
async function login(ctx: LoadContext, who: StaffLogin): Promise<string | null> {
  const path = '/pages/Franquia/admin.php';
  const page = await request(ctx.url + path, { text: true, headers: { 'x-forwarded-for': who.address } });
  const token = hidden(page.body, 'csrf_token');
  if (!token) return null;
  const cookie = cookiesOf(page);
  const res = await request(ctx.url + path, {
    method: 'POST',
    headers: { cookie, 'x-forwarded-for': who.address, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf_token: token, acao: 'entrar', email: who.email, senha: who.password }).toString(),
  });
  return res.status === 303 ? cookiesOf(res, cookie) : null;
}

function saoPauloDay(offsetDays = 0): string {
  const d = new Date(Date.now() - 3 * 3600_000 + offsetDays * 86_400_000);
  return d.toISOString().slice(0, 10);
}

/** One staff member's day: their pages on a timer (first round at a random moment). */
export async function staffLoad(ctx: LoadContext, who: StaffLogin, r: Rng): Promise<void> {
  const every = (who.papel === 'gerente' ? ctx.rates.managerEverySec : ctx.rates.adminEverySec) * 1000;
  const year = `de=${saoPauloDay(-364)}&ate=${saoPauloDay()}`;
  const pages: [string, string][] =
    who.papel === 'gerente'
      ? [
          ['gerente: relatório da unidade', `/admin/pesquisa?unidade_id=${who.unitId}`],
          ['gerente: mensagens da unidade', `/admin/mensagens?unidade_id=${who.unitId}`],
          ['gerente: aulas da unidade', `/admin/aulas-experimentais?unidade_id=${who.unitId}`],
        ]
      : [
          ['admin: relatório da rede, 12 meses', `/admin/pesquisa?${year}`],
          ['admin: mensagens da rede', '/admin/mensagens'],
          ['admin: funil da rede', '/admin/aulas-experimentais/funil'],
        ];
  const exports = [
    `/admin/pesquisa/exportar.csv?${year}`,
    '/admin/mensagens/exportar.csv',
    '/pages/Franquia/admin.php?export=csv',
  ];
  const sleep = (ms: number) =>
    new Promise<void>((res) => {
      const until = performance.now() + ms;
      const tick = () => (!ctx.running() || performance.now() >= until ? res() : setTimeout(tick, 250));
      tick();
    });
  let cookie: string | null = null;
  let nextExport = who.papel === 'admin' ? performance.now() + r.next() * ctx.rates.exportEverySec * 1000 : Infinity;
  let exportsDone = r.int(exports.length);
  let exporting: Promise<void> | undefined;
  await sleep(r.next() * every);
  let round = performance.now();
  while (ctx.running()) {
    cookie ??= await login(ctx, who);
    if (cookie) {
      const session = cookie;
      for (const [kind, path] of pages) {
        const t = ctx.rec.now();
        const a = await request(ctx.url + path, { headers: { cookie: session, 'x-forwarded-for': who.address } });
        ctx.rec.add(kind, 'staff', { t, ms: a.ms, status: a.status });
        if (a.status === 302 || a.status === 303) cookie = null; // session gone: log in again
        if (!ctx.running()) break;
      }
      if (performance.now() >= nextExport && !exporting) {
        nextExport += ctx.rates.exportEverySec * 1000;
        const path = exports[exportsDone++ % exports.length]!;
        const t = ctx.rec.now();
        exporting = request(ctx.url + path, {
          headers: { cookie: session, 'x-forwarded-for': who.address },
          timeoutMs: 300_000,
        })
          .then((a) => ctx.rec.add('admin: exportação', 'export', { t, ms: a.ms, status: a.status }))
          .finally(() => (exporting = undefined));
      }
    } else await sleep(2_000);
    round += every;
    await sleep(Math.max(0, round - performance.now()));
  }
  await exporting;
}

export function closeLoadAgent(): void {
  agent.destroy();
}
