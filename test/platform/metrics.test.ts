// /metrics: off without METRICS_TOKEN, bearer-only with it, and what a scrape says, read
// through a parser of the text format (0.0.4) rather than by searching the text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnrolmentStatus } from '../../src/db/types';
import { enqueueMail } from '../../src/platform/mail/outbox.repository';
import { createTestApp, secondInstance, type TestContext } from '../helpers/app';
import { fetchForm, form } from '../helpers/http';
import { createStaffUser, LOGIN_URL } from '../helpers/staff';
import { enrolmentRow } from '../helpers/enrolment';

const TOKEN = 'token-de-metricas-com-32-caracteres-x';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The text exposition format: # HELP / # TYPE lines, then `name{label="value",…} number`. */
function parseMetrics(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    const labelRe = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;
    const body = m[2] ?? '';
    let consumed = 0;
    for (let l = labelRe.exec(body); l; l = labelRe.exec(body)) {
      labels[l[1]!] = l[2]!.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
      consumed = labelRe.lastIndex;
    }
    if (consumed !== body.length) throw new Error(`bad labels: ${line}`);
    // Prometheus reads values as Go's ParseFloat does: NaN and Inf in any letter case.
    const raw = m[3]!.toLowerCase();
    const value = /^[+-]?inf$/.test(raw) ? (raw.startsWith('-') ? -Infinity : Infinity) : Number(raw);
    if (Number.isNaN(value) && raw !== 'nan') throw new Error(`bad value: ${line}`);
    samples.push({ name: m[1]!, labels, value });
  }
  return { samples, types };
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
const sumOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  find(samples, name, labels).reduce((sum, s) => sum + s.value, 0);

describe('metrics endpoint off', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(async () => t?.close());

  it('does not exist without METRICS_TOKEN (404), even with a bearer header', async () => {
    const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(404);
  });

  it('refuses a token shorter than the minimum at start-up, without echoing it', async () => {
    const { loadConfig } = await import('../../src/config');
    expect(() => loadConfig({ METRICS_TOKEN: 'curto' })).toThrow(/METRICS_TOKEN.*\(oculto\)/s);
  });
});

describe('metrics endpoint on', () => {
  let t: TestContext;
  let unitId: number;
  const scrape = async () => {
    const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    return parseMetrics(res.body);
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
    unitId = (
      await t.db.selectFrom('unidades').select('id').where('ativo', '=', 1).orderBy('id').executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => t?.close());

  it('answers 401 to a missing, wrong or differently shaped token', async () => {
    const wrong = [undefined, 'Bearer errado', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, TOKEN];
    for (const authorization of [...wrong, 'Bearer ', `Bearer ${TOKEN} extra`]) {
      const res = await t.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.body).not.toContain('http_request_duration_seconds');
    }
  });

  it('takes the scheme in any case (RFC 9110)', async () => {
    for (const authorization of [`bearer ${TOKEN}`, `BEARER ${TOKEN}`, `Bearer  ${TOKEN}`]) {
      const res = await t.app.inject({ url: '/metrics', headers: { authorization } });
      expect(res.statusCode, authorization).toBe(200);
    }
  });

  it('serves the text format 0.0.4 with the process defaults', async () => {
    const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const { samples, types } = parseMetrics(res.body);
    expect(types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(sumOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(types.get('http_request_duration_seconds')).toBe('histogram');
    // SQLite has one connection; PostgreSQL's pool has opened at least the one used by the tests.
    expect(find(samples, 'db_pool_connections', { state: 'idle' })).toHaveLength(1);
    expect(find(samples, 'db_pool_connections', { state: 'in_use' })).toHaveLength(1);
    expect(find(samples, 'db_pool_waiting_requests')[0]?.value).toBe(0);
    for (const job of ['digest', 'reminders', 'retention', 'sweep', 'envio_prune', 'identity_purge'])
      expect(find(samples, 'job_runs_total', { job }), job).toHaveLength(1);
  });

  it('labels request durations by route pattern, method and status class, never by the raw address', async () => {
    expect((await t.app.inject(`/Detalhes.php?id=${unitId}`)).statusCode).toBe(200);
    expect((await t.app.inject(`/Detalhes.php?id=${unitId + 100000}`)).statusCode).toBe(404);
    expect((await t.app.inject(`/ir/whatsapp?unidade=${unitId}`)).statusCode).toBe(302);
    expect((await t.app.inject('/ir/nao-existe')).statusCode).toBe(404);
    expect((await t.app.inject('/caminho/que/nao/existe-1234')).statusCode).toBe(404);
    const { samples } = await scrape();
    const counts = find(samples, 'http_request_duration_seconds_count');
    const routes = new Set(counts.map((s) => s.labels.route));
    expect(routes).toContain('/Detalhes.php');
    expect(routes).toContain('/ir/:acao');
    expect(routes).toContain('404');
    for (const r of routes) expect(r, 'raw address in a label').not.toMatch(/\?|nao-existe|whatsapp|1234/);

    const count = (labels: Record<string, string>) => sumOf(samples, 'http_request_duration_seconds_count', labels);
    expect(count({ route: '/Detalhes.php', method: 'GET', status_class: '2xx' })).toBeGreaterThanOrEqual(1);
    expect(count({ route: '/Detalhes.php', method: 'GET', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(count({ route: '/ir/:acao', method: 'GET', status_class: '3xx' })).toBeGreaterThanOrEqual(1);
    expect(count({ route: '/ir/:acao', method: 'GET', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(count({ route: '404', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    // A histogram: cumulative buckets ending in +Inf equal to the count.
    const buckets = find(samples, 'http_request_duration_seconds_bucket', {
      route: '/Detalhes.php',
      status_class: '2xx',
    });
    expect(buckets.at(-1)?.labels.le).toBe('+Inf');
    expect(buckets.at(-1)?.value).toBe(count({ route: '/Detalhes.php', status_class: '2xx' }));
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
  });

  it('counts a failed login, and a refused one once the account is locked out', async () => {
    const user = await createStaffUser(t.db);
    const before = (await scrape()).samples;
    const attempt = async (password: string) => {
      const page = await fetchForm(t.app, LOGIN_URL);
      return t.app.inject({
        method: 'POST',
        url: LOGIN_URL,
        remoteAddress: '10.91.0.1',
        headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ csrf_token: page.token, acao: 'entrar', email: user.email, senha: password }),
      });
    };
    await attempt('senha-errada-1');
    const once = (await scrape()).samples;
    expect(sumOf(once, 'login_failures_total') - sumOf(before, 'login_failures_total')).toBe(1);
    for (let i = 0; i < 5; i++) await attempt(`senha-errada-${i + 2}`);
    const after = (await scrape()).samples;
    expect(sumOf(after, 'login_failures_total') - sumOf(before, 'login_failures_total')).toBe(5);
    expect(sumOf(after, 'login_lockouts_total') - sumOf(before, 'login_lockouts_total')).toBe(1);
  });

  it('reports the mail outbox depth and the age of its oldest pending message', async () => {
    const before = (await scrape()).samples;
    expect(find(before, 'outbox_depth', { canal: 'email' })).toHaveLength(1);
    const depth0 = sumOf(before, 'outbox_depth', { canal: 'email' });
    // Queued ten minutes ago (as a message waiting on a down SMTP server would be).
    const id = await enqueueMail(t.db, { to: 'fila@example.com', subject: 'Na fila', text: 'x' });
    await t.db
      .updateTable('fila_emails')
      .set({ criado_em: new Date(Date.now() - 600_000).toISOString() })
      .where('id', '=', id)
      .execute();
    await enqueueMail(t.db, { to: 'fila@example.com', subject: 'Na fila 2', text: 'x' });
    const after = (await scrape()).samples;
    expect(sumOf(after, 'outbox_depth', { canal: 'email' })).toBe(depth0 + 2);
    const age = sumOf(after, 'outbox_oldest_pending_age_seconds', { canal: 'email' });
    expect(age).toBeGreaterThanOrEqual(600);
    expect(age).toBeLessThan(3600);
    // A delivered message leaves the queue.
    await t.db.updateTable('fila_emails').set({ status: 'enviado' }).where('id', '=', id).execute();
    expect(sumOf((await scrape()).samples, 'outbox_depth', { canal: 'email' })).toBe(depth0 + 1);
  });

  it('reports another outbox through the provider hook (the webhooks use it)', async () => {
    t.app.metrics.addOutboxSource('webhook', async () => ({
      depth: 3,
      oldestPendingAt: new Date(Date.now() - 120_000).toISOString(),
    }));
    const { samples } = await scrape();
    expect(sumOf(samples, 'outbox_depth', { canal: 'webhook' })).toBe(3);
    expect(sumOf(samples, 'outbox_oldest_pending_age_seconds', { canal: 'webhook' })).toBeGreaterThanOrEqual(120);
    expect(find(samples, 'outbox_deliveries_total', { canal: 'webhook', result: 'sent' })).toHaveLength(1);
  });

  it('counts online enrolments by status in the database at each scrape, the same on every instance', async () => {
    const statuses: EnrolmentStatus[] = [
      'aguardando_pagamento',
      'ativa',
      'expirada',
      'desistencia',
      'cancelamento_solicitado',
      'cancelada',
    ];
    const first = await scrape();
    expect(first.types.get('academia_matriculas')).toBe('gauge');
    // every status is a series from the start, so a rate or an alert never meets an absent one
    for (const status of statuses)
      expect(find(first.samples, 'academia_matriculas', { status }), status).toHaveLength(1);
    const count = (samples: Sample[], status: string) => sumOf(samples, 'academia_matriculas', { status });
    const base = Object.fromEntries(statuses.map((s) => [s, count(first.samples, s)]));

    const planId = (await t.db.selectFrom('planos').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const at = new Date().toISOString();
    const row = (i: number, status: EnrolmentStatus) =>
      enrolmentRow(
        {
          codigo: `metricas-${i}`,
          unidade_id: unitId,
          plano_id: planId,
          status,
          nome: 'Pessoa das Métricas',
          cpf: String(90000000000 + i),
          email: `metricas${i}@exemplo.com.br`,
        },
        at,
      );
    await t.db
      .insertInto('matriculas')
      .values([row(1, 'ativa'), row(2, 'ativa'), row(3, 'aguardando_pagamento'), row(4, 'cancelada')])
      .execute();
    const after = (await scrape()).samples;
    expect(count(after, 'ativa')).toBe(base.ativa! + 2);
    expect(count(after, 'aguardando_pagamento')).toBe(base.aguardando_pagamento! + 1);
    expect(count(after, 'cancelada')).toBe(base.cancelada! + 1);
    expect(count(after, 'expirada')).toBe(base.expirada);

    // a transition made anywhere shows on every instance: the figure comes from the database
    await t.db.updateTable('matriculas').set({ status: 'cancelada' }).where('codigo', '=', 'metricas-1').execute();
    const other = await secondInstance(t);
    try {
      const res = await other.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      const there = parseMetrics(res.body).samples;
      const here = (await scrape()).samples;
      for (const status of statuses) expect(count(there, status), status).toBe(count(here, status));
      expect(count(here, 'ativa')).toBe(base.ativa! + 1);
      expect(count(here, 'cancelada')).toBe(base.cancelada! + 2);
    } finally {
      await other.close();
    }
  });
});
