// Real nginx (Debian's) in front of instances, for tests and the benchmark: its own prefix,
// config, pid, logs and cache in a temp dir, a free port, in the foreground (daemon off), as
// the current user. The cache settings are those of docs/operations.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitFor } from './cluster';

export const NGINX_BIN = process.env.NGINX ?? '/usr/sbin/nginx';

export interface TestNginx {
  url: string;
  dir: string;
  errorLog(): string;
  stop(): Promise<void>;
}

/** The micro-cache of docs/operations.md, with `upstreams` (host:port) behind it. */
export function microCacheConfig(dir: string, port: number, upstreams: string[]): string {
  // As root, workers would switch to `nobody` and could not write the temp dir.
  const user = process.getuid?.() === 0 ? 'user root root;' : '';
  const app = `
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;`;
  return `
${user}
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=public:10m max_size=256m inactive=1h use_temp_path=off;
  upstream app {
    ${upstreams.map((u) => `server ${u} max_fails=1 fail_timeout=2s;`).join('\n    ')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location / {${app}
      proxy_cache public;
      proxy_cache_lock on;
      proxy_cache_use_stale updating error timeout http_500 http_502 http_503 http_504;
      proxy_cache_background_update on;
      proxy_cache_revalidate on;
      add_header X-Cache-Status $upstream_cache_status always;
    }
    location /admin/ {${app}
    }
    location /pages/Franquia/ {${app}
    }
  }
}
`;
}

export async function startNginx(upstreams: string[], config = microCacheConfig): Promise<TestNginx> {
  if (!existsSync(NGINX_BIN)) throw new Error(`nginx not found at ${NGINX_BIN} (apt-get install nginx; .ci/run does)`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gym-nginx-'));
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'cache']) mkdirSync(path.join(dir, d));
  const port = await freePort();
  writeFileSync(path.join(dir, 'nginx.conf'), config(dir, port, upstreams));
  const child: ChildProcess = spawn(
    NGINX_BIN,
    ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  let exited = false;
  const done = new Promise<void>((resolve) => child.on('exit', () => ((exited = true), resolve())));
  const errorLog = () => {
    try {
      return stderr + readFileSync(path.join(dir, 'error.log'), 'utf8');
    } catch {
      return stderr;
    }
  };
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (exited) throw new Error(`nginx exited:\n${errorLog()}`);
      await fetch(`${url}/healthz`);
      return true;
    },
    10_000,
    'nginx to listen',
    50,
  );
  return {
    url,
    dir,
    errorLog,
    async stop() {
      if (!exited) {
        child.kill('SIGQUIT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await done;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
