// Photo uploads on the real built server: `node --import tsx bench/uploads.ts` after
// `npm run build` (also run by `npm run bench`). A 48-megapixel phone-like JPEG (≈ 11 MB,
// made once and kept in the temp folder) is posted to the free-message form:
//   1. one upload on a fresh server: time to the 303, RSS above idle (targets ≤ 2.5 s, ≤ 150 MB);
//   2. ten uploads at once: every one stored, the process peak RSS (VmHWM) (target ≤ 400 MB).
// BENCH_STORAGE_DRIVER=database stores the photos in the database instead of UPLOADS_DIR.
// The server runs with MALLOC_ARENA_MAX=2, as `npm start` runs it; BENCH_MALLOC_ARENA_MAX=padrao
// measures glibc's default instead (or give another number).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { seedDemo } from '../src/db/seeds/demo';
import { atMost, fetchFormToken, formatTarget, prepareDatabase, printTable, startAppServer } from './lib';

const PHOTO = path.join(os.tmpdir(), 'gym-bench-48mp-v1.jpg');

/** 8000 × 6000 with fine noise: compresses like a real photo (≈ 11 MB at quality 90). */
export async function phonePhoto48mp(): Promise<Buffer> {
  if (existsSync(PHOTO)) return readFileSync(PHOTO);
  console.log('Fotos: gerando uma foto de 48 MP (uma vez; fica em', PHOTO, ')…');
  const sharp = (await import('sharp')).default;
  const data = await sharp({
    create: {
      width: 8000,
      height: 6000,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 8 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
  writeFileSync(PHOTO, data);
  return data;
}

function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

export interface UploadBenchResult {
  singleMs: number;
  idleMb: number;
  singlePeakAboveIdleMb: number;
  tenPeakMb: number;
  tenMs: number;
  tenStored: number;
  pass: boolean;
}

export async function runUploadBench(): Promise<UploadBenchResult> {
  const photo = await phonePhoto48mp();
  const db = await prepareDatabase(async (d) => {
    await seedDemo(d);
    return (await d.selectFrom('unidades').select('id').where('ativo', '=', 1).orderBy('id').executeTakeFirstOrThrow())
      .id;
  });
  const env: Record<string, string> = {
    TRUST_PROXY: 'loopback',
    STORAGE_DRIVER: process.env.BENCH_STORAGE_DRIVER ?? 'local',
  };
  const arenas = process.env.BENCH_MALLOC_ARENA_MAX ?? '2';
  if (arenas !== 'padrao') env.MALLOC_ARENA_MAX = arenas;
  console.log(
    `Fotos: servidor com STORAGE_DRIVER=${env.STORAGE_DRIVER}, MALLOC_ARENA_MAX=${
      env.MALLOC_ARENA_MAX ?? '(padrão da glibc)'
    }`,
  );
  const app = await startAppServer(db.databaseUrl, env);
  try {
    const { token, cookie } = await fetchFormToken(`${app.url}/NPS/nps_app_php/fale_aqui.php`, '_token');
    let n = 0;
    const post = async () => {
      const fd = new FormData();
      fd.append('_token', token);
      fd.append('unidade_id', String(db.seeded));
      fd.append('mensagem', 'Foto do aparelho quebrado');
      fd.append('arquivos[]', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'IMG_0001.jpg');
      // Each request from its own address: the form allows 10 POSTs a minute per address.
      const res = await fetch(`${app.url}/NPS/nps_app_php/salvar_fale_aqui.php`, {
        method: 'POST',
        body: fd,
        redirect: 'manual',
        headers: { cookie, 'x-forwarded-for': `10.9.${++n >> 8}.${n & 255}` },
      });
      await res.arrayBuffer();
      return res.status;
    };
    await new Promise((r) => setTimeout(r, 500));
    const idleMb = procStatusMb(app.pid, 'VmRSS');
    let t0 = Date.now();
    const first = await post();
    const singleMs = Date.now() - t0;
    const singlePeak = procStatusMb(app.pid, 'VmHWM');
    if (first !== 303) throw new Error(`upload answered ${first}`);

    t0 = Date.now();
    const statuses = await Promise.all(Array.from({ length: 10 }, post));
    const tenMs = Date.now() - t0;
    const tenPeakMb = procStatusMb(app.pid, 'VmHWM');
    const tenStored = statuses.filter((s) => s === 303).length;

    const targets = {
      single: atMost(singleMs / 1000, 2.5, ' s', 2),
      singleMem: atMost(singlePeak - idleMb, 150, ' MB'),
      ten: atMost(tenPeakMb, 400, ' MB'),
    };
    printTable(
      ['medida', 'valor', 'meta'],
      [
        ['RSS ocioso', `${idleMb.toFixed(0)} MB`, ''],
        ['1 foto de 48 MP: tempo até o 303', `${(singleMs / 1000).toFixed(2)} s`, formatTarget(targets.single)],
        [
          '1 foto de 48 MP: pico acima do ocioso',
          `${(singlePeak - idleMb).toFixed(0)} MB`,
          formatTarget(targets.singleMem),
        ],
        ['10 fotos ao mesmo tempo: pico do processo', `${tenPeakMb.toFixed(0)} MB`, formatTarget(targets.ten)],
        ['10 fotos ao mesmo tempo: tempo total', `${(tenMs / 1000).toFixed(2)} s`, ''],
        ['10 fotos ao mesmo tempo: gravadas', `${tenStored}/10`, tenStored === 10 ? 'PASS' : 'MISS'],
      ],
    );
    return {
      singleMs,
      idleMb,
      singlePeakAboveIdleMb: singlePeak - idleMb,
      tenPeakMb,
      tenMs,
      tenStored,
      pass: targets.single.pass && targets.singleMem.pass && targets.ten.pass && tenStored === 10,
    };
  } finally {
    await app.stop();
    db.cleanup();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runUploadBench()
    .then((r) => {
      console.log(`Fotos: ${r.pass ? 'PASS' : 'MISS'}`);
      // As the other benchmarks: a missed target is reported, only a lost upload fails.
      process.exitCode = r.tenStored === 10 ? 0 : 1;
    })
    .catch((err) => {
      console.error(err);
      process.exitCode = 1;
    });
}
