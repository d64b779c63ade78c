// The request log: one line per request (method, address, status, time), and every line a
// request's logger writes carries the request id.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { loggerOptions } from '../../src/http/logger';
import { createTestDb, type TestDb } from '../helpers/db';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  [k: string]: unknown;
}

let app: App | undefined;
let testDb: TestDb | undefined;
afterEach(async () => {
  await app?.close();
  await testDb?.cleanup();
  app = testDb = undefined;
});

async function appLogging(level: string) {
  testDb = await createTestDb();
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Line);
      done();
    },
  });
  const config = {
    ...loadConfig({
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      MAIL_WORKER: 'false',
      SCHEDULED_JOBS: 'false',
      LOG_LEVEL: level,
    }),
    database: testDb.config,
  };
  app = await buildApp(config, { db: testDb.handle, logger: { ...loggerOptions(config, false), stream } });
  app.get('/__boom', async (request) => {
    request.log.warn({ detail: 'x' }, 'something odd');
    request.log.child({ step: 'inner' }).error('inner failure');
    throw new Error('boom');
  });
  await app.ready();
  return lines;
}

describe('request logger', () => {
  it('at info: one line per request, with the request id sent back to the client', async () => {
    const lines = await appLogging('info');
    const res = await app!.inject({ url: '/healthz?token=segredo' });
    const id = res.headers['x-request-id'];
    expect(id).toBeTruthy();
    const mine = lines.filter((l) => l.reqId === id);
    expect(mine.map((l) => l.msg)).toEqual(['request completed']);
    expect(mine[0]).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/healthz?token=oculto' },
      res: { statusCode: 200 },
    });
    expect(typeof mine[0]!.responseTime).toBe('number');
    const missing = await app!.inject({ url: '/nao-existe' });
    expect(lines.find((l) => l.reqId === missing.headers['x-request-id'])).toMatchObject({ res: { statusCode: 404 } });
  });

  it('at warn: no per-request info line, but warnings, errors and child loggers keep the request id', async () => {
    const lines = await appLogging('warn');
    await app!.inject({ url: '/healthz' });
    expect(lines.filter((l) => l.msg === 'request completed')).toEqual([]);
    const res = await app!.inject({ url: '/__boom', headers: { 'x-request-id': 'proxy-id-1' } });
    expect(res.statusCode).toBe(500);
    expect(res.headers['x-request-id']).toBe('proxy-id-1');
    const mine = lines.filter((l) => l.reqId === 'proxy-id-1');
    expect(mine.map((l) => l.msg)).toEqual(expect.arrayContaining(['something odd', 'inner failure']));
    expect(mine.find((l) => l.msg === 'inner failure')?.step).toBe('inner');
    expect(mine.every((l) => l.level >= 40)).toBe(true);
  });
});
