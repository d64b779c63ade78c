// The PHP peer (bench/php-peer/): the old site's search and unit page in PHP, reading the
// same SQLite file through PDO, served as such sites are deployed: php-fpm with Debian's
// default pool (dynamic, at most 5 children; opcache on) behind nginx over FastCGI. Each
// has its own config, pid and logs in a temp dir and runs in the foreground as the current
// user. Null, with the reason, when php-fpm, pdo_sqlite or nginx is missing.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ChildServer, freePort, waitForHttp, wrap } from './lib';

const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';

function findPhpFpm(): string | null {
  if (process.env.PHP_FPM) return process.env.PHP_FPM;
  const found = readdirSync('/usr/sbin').filter((f) => /^php-fpm[\d.]*$/.test(f));
  return found.length ? path.join('/usr/sbin', found.sort().at(-1)!) : null;
}

/** RSS of a process and its children (php-fpm workers), MB. */
function treeRssMb(pid: number): number | null {
  try {
    const pids = [
      pid,
      ...execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
        .split(/\s+/)
        .filter(Boolean)
        .map(Number),
    ];
    let kb = 0;
    for (const p of pids) kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return null;
  }
}

export type PhpPeer = ChildServer & { rssOfPhpMb(): number | null };

export async function startPhpPeer(sqliteFile: string): Promise<PhpPeer | { unavailable: string }> {
  const fpm = findPhpFpm();
  if (!fpm) return { unavailable: 'php-fpm não encontrado (apt-get install php-fpm php-sqlite3)' };
  if (!existsSync(NGINX)) return { unavailable: `nginx não encontrado em ${NGINX} (apt-get install nginx)` };
  const modules = execFileSync(fpm, ['-m'], { encoding: 'utf8' });
  if (!/^pdo_sqlite$/m.test(modules)) return { unavailable: 'php sem pdo_sqlite (apt-get install php-sqlite3)' };

  const dir = mkdtempSync(path.join(os.tmpdir(), 'gym-bench-php-'));
  const root = path.resolve('bench/php-peer');
  const socket = path.join(dir, 'php-fpm.sock');
  const asRoot = process.getuid?.() === 0;
  writeFileSync(
    path.join(dir, 'php-fpm.conf'),
    `[global]
pid = ${dir}/php-fpm.pid
error_log = ${dir}/php-fpm.log
daemonize = no
[www]
listen = ${socket}
pm = dynamic
pm.max_children = 5
pm.start_servers = 2
pm.min_spare_servers = 1
pm.max_spare_servers = 3
env[BENCH_DB] = ${sqliteFile}
`,
  );
  const port = await freePort();
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) execFileSync('mkdir', ['-p', path.join(dir, d)]);
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `${asRoot ? 'user root root;' : ''}
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  gzip on;
  gzip_types application/json;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location ~ \\.php$ {
      include /etc/nginx/fastcgi_params;
      fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;
      fastcgi_pass unix:${socket};
    }
  }
}
`,
  );
  const php: ChildProcess = spawn(fpm, ['-F', '-y', path.join(dir, 'php-fpm.conf'), ...(asRoot ? ['-R'] : [])], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const nginx: ChildProcess = spawn(
    NGINX,
    ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'nginx-error.log')],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}`;
  const phpServer = wrap('php-fpm', php, url);
  const nginxServer = wrap('nginx', nginx, url);
  try {
    await waitForHttp(`${url}/search_ajax.php?q=academia`, nginx);
  } catch (err) {
    await Promise.all([phpServer.stop(), nginxServer.stop()]);
    const logs = ['php-fpm.log', 'nginx-error.log']
      .map((f) => (existsSync(path.join(dir, f)) ? readFileSync(path.join(dir, f), 'utf8').trim() : ''))
      .filter(Boolean)

      .join('\n')
      .slice(-2000);
    rmSync(dir, { recursive: true, force: true });
    return { unavailable: `o par PHP não respondeu: ${(err as Error).message}${logs ? `\n${logs}` : ''}` };
  }
  return {
    name: 'php',
    url,
    pid: php.pid!,
    rssMb: () => treeRssMb(php.pid!),
    rssOfPhpMb: () => treeRssMb(php.pid!),
    stop: async () => {
      await Promise.all([phpServer.stop(), nginxServer.stop()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
