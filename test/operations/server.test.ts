// The built server as an operator runs it: migrates and seeds an empty database,
// serves, and exits cleanly on SIGTERM.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startInstance, stopInstance, waitFor } from '../helpers/cluster';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gym-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(() => {
  if (!existsSync('dist/server.js')) throw new Error('run `npm run build` first (npm test does)');
});

function waitForLine(child: ReturnType<typeof spawn>, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`timeout waiting for ${pattern}; output:\n${out}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
}

it('starts on an empty SQLite database with demo content and drains on SIGTERM', async () => {
  const child = spawn(process.execPath, ['dist/server.js'], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`,
      UPLOADS_DIR: path.join(dir, 'uploads'),
      MAIL_WORKER: 'false',
      // debug: the arrival line ("incoming request") tells when the request is in flight
      LOG_LEVEL: 'debug',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const line = await waitForLine(child, /Server listening at http:\/\/127\.0\.0\.1:(\d+)/);
  const port = /:(\d+)$/.exec(line)![1];
  const base = `http://127.0.0.1:${port}`;

  expect((await fetch(`${base}/readyz`)).status).toBe(200);
  const search = await fetch(`${base}/search_ajax.php?q=sao paulo`);
  expect(search.status).toBe(200);
  expect(Array.isArray(await search.json())).toBe(true);

  // A request in flight when SIGTERM arrives still completes: its body is still being
  // uploaded when the signal comes.
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const seen = waitForLine(child, /"url":"\/pages\/Franquia\/index\.php"/);
  const response = new Promise<{ status: number; connection?: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: Number(port),
        method: 'POST',
        path: '/pages/Franquia/index.php',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '45' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      },
    );
    req.on('error', reject);
    req.write('nome_completo=Maria');
    seen.then(() => {
      child.kill('SIGTERM');
      setTimeout(() => req.end('&email=m%40exemplo.com&x=1'), 300);
    }, reject);
  });
  const res = await response;
  // Refused for its missing CSRF token, but answered, and the connection is released.
  expect(res.status).toBe(403);
  expect(res.connection).toBe('close');
  expect(await exited).toBe(0);
  // The database was closed cleanly: the WAL was checkpointed away.
  expect(existsSync(path.join(dir, 'db.sqlite'))).toBe(true);
  expect(existsSync(path.join(dir, 'db.sqlite-wal'))).toBe(false);
});

it('draws the demo photos in a child process: the server never loads libvips, and the unit pages show them', {
  timeout: 90_000,
}, async () => {
  const own = mkdtempSync(path.join(os.tmpdir(), 'gym-server-photos-'));
  const server = await startInstance('photos', {
    NODE_ENV: 'development',
    DATABASE_URL: `sqlite:${path.join(own, 'db.sqlite')}`,
    UPLOADS_DIR: path.join(own, 'uploads'),
    MAIL_WORKER: 'false',
  });
  try {
    await waitFor(() => /"photos":\d+,"msg":"demo photos stored"/.test(server.output()), 80_000, 'the demo photos');
    // sharp's native library (~90 MB resident) stays out of the server process (Linux: /proc).
    const maps = `/proc/${server.child.pid}/maps`;
    if (existsSync(maps)) expect(readFileSync(maps, 'utf8')).not.toMatch(/libvips/);
    // …and the catalog was refreshed: the unit page serves its photos.
    const page = await fetch(`http://127.0.0.1:${server.port}/Detalhes.php?id=1`);
    expect(await page.text()).toMatch(/\/fotos\/unidades\/1\/[0-9a-f]+-480\.(avif|webp|jpg)/);
  } finally {
    await stopInstance(server);
    rmSync(own, { recursive: true, force: true });
  }
});
