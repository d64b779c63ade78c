// Backups that restore. On SQLite: `npm run backup` (the built command, another process)
// copies the database while the running site takes survey answers and free messages with
// photos over HTTP; `npm run restore` puts it in a new folder; a site started on the copy
// shows what the copy holds (row counts of the manifest, a photo's bytes, the NPS figure).
// On PostgreSQL the archive carries the uploaded files and the manifest (pg_dump does the
// database). Restore refuses a folder in use and an archive that does not match its manifest.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { create as tarCreate, extract as tarExtract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { computeNps, formatNps } from '../../src/features/feedback/survey/nps';
import { addDays, saoPauloDay, saoPauloDayStartIso } from '../../src/lib/time';
import {
  type BackupManifest,
  BackupError,
  createBackup,
  pruneBackups,
  restoreBackup,
  runScheduledBackup,
} from '../../src/platform/backup/index';
import { createTestApp, type TestContext } from '../helpers/app';
import { TEST_ENGINE } from '../helpers/db';
import { createStaffUser, loginAs } from '../helpers/staff';
import { postMessage } from '../helpers/upload';

const SURVEY_FORM = '/NPS/nps_app_php/index.php';
const SURVEY_POST = '/NPS/nps_app_php/salvar_resposta.php';
const MESSAGE_FORM = '/NPS/nps_app_php/fale_aqui.php';
const MESSAGE_POST = '/NPS/nps_app_php/salvar_fale_aqui.php';

let work: string;
beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'gym-backup-test-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function run(cmd: string, args: string[], env: Record<string, string>) {
  if (!existsSync(`dist/cli/${cmd}.js`)) throw new Error('run `npm run build` first (npm test does)');
  // Asynchronous: the site in this process keeps answering while the command runs.
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [`dist/cli/${cmd}.js`, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A small JPEG of its own colour, so every photo's bytes differ. */
const photo = (n: number) =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r: n % 256, g: (n * 7) % 256, b: 90 } } })
    .jpeg()
    .toBuffer();

async function tarball(dir: string, file: string) {
  await tarCreate({ gzip: true, file, cwd: dir, portable: true }, readdirSync(dir));
}

describe('backup and restore', () => {
  let t: TestContext;
  let base: string;
  let unitId: number;
  let survey: { escala: number; others: number[]; options: Map<string, number> };
  const written = { survey: 0, messages: 0, failed: [] as string[] };

  beforeAll(async () => {
    t = await createTestApp({ env: { STORAGE_DRIVER: 'local', TRUST_PROXY: 'loopback' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    unitId = (
      await t.db.selectFrom('unidades').select('id').where('ativo', '=', 1).orderBy('id').executeTakeFirstOrThrow()
    ).id;
    const questions = await t.db
      .selectFrom('perguntas')
      .select(['id', 'tipo', 'obrigatoria'])
      .orderBy('ordem')
      .execute();
    const options = new Map<string, number>();
    for (const o of await t.db.selectFrom('perguntas_opcoes').select(['id', 'pergunta_id', 'valor']).execute())
      options.set(`${o.pergunta_id}:${o.valor}`, o.id);
    survey = { escala: questions[0]!.id, others: [questions[1]!.id, questions[2]!.id], options };
  });
  afterAll(async () => t?.close());

  let address = 0;
  /** GET a form over HTTP: its token, envio_id and cookies. */
  async function openForm(url: string) {
    const res = await fetch(`${base}${url}`);
    const html = await res.text();
    const token = /name="_token" value="([^"]+)"/.exec(html)?.[1];
    const envio = /name="envio_id" value="([^"]+)"/.exec(html)?.[1];
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    if (!token) throw new Error(`no _token in ${url} (${res.status})`);
    return { token, envio, cookie };
  }
  const headers = (cookie: string) => ({
    cookie,
    'x-forwarded-for': `10.66.${(++address >> 8) & 255}.${address & 255}`,
  });

  async function answerSurvey(n: number) {
    const f = await openForm(`${SURVEY_FORM}?unidade_id=${unitId}`);
    const body = new URLSearchParams({
      _token: f.token,
      unidade_id: String(unitId),
      ...(f.envio ? { envio_id: f.envio } : {}),
    });
    body.set(`respostas[${survey.escala}]`, String(survey.options.get(`${survey.escala}:${n % 11}`)));
    for (const q of survey.others) body.set(`respostas[${q}]`, String(survey.options.get(`${q}:${(n % 4) + 1}`)));
    const res = await fetch(`${base}${SURVEY_POST}`, {
      method: 'POST',
      headers: headers(f.cookie),
      body,
      redirect: 'manual',
    });
    if (res.status === 303) written.survey++;
    else written.failed.push(`survey ${res.status} ${(await res.text()).replace(/\s+/g, ' ').slice(0, 3000)}`);
  }

  async function sendMessage(n: number) {
    const f = await openForm(MESSAGE_FORM);
    const fd = new FormData();
    for (const [k, v] of Object.entries({
      _token: f.token,
      ...(f.envio ? { envio_id: f.envio } : {}),
      nome_completo: `Cliente ${n}`,
      unidade_id: String(unitId),
      unidade: '',
      mensagem: `Mensagem número ${n} durante o backup.`,
    }))
      fd.append(k, v);
    fd.append('arquivos[]', new Blob([new Uint8Array(await photo(n))], { type: 'image/jpeg' }), `foto-${n}.jpg`);
    const res = await fetch(`${base}${MESSAGE_POST}`, {
      method: 'POST',
      headers: headers(f.cookie),
      body: fd,
      redirect: 'manual',
    });
    if (res.status === 303) written.messages++;
    else written.failed.push(`message ${res.status}`);
  }

  // The round trip: on SQLite the whole site, on PostgreSQL what pg_dump leaves out.
  if (TEST_ENGINE === 'postgres')
    it('carries every uploaded file with its hash and the row counts; restore puts the files back', async () => {
      const unitId = (await t.db.selectFrom('unidades').select('id').where('ativo', '=', 1).executeTakeFirstOrThrow())
        .id;
      for (const n of [1, 2]) {
        const res = await postMessage(
          t.app,
          { nome_completo: `Cliente ${n}`, unidade_id: String(unitId), unidade: '', mensagem: 'Com foto' },
          [{ name: `f${n}.jpg`, type: 'image/jpeg', data: await photo(n) }],
        );
        expect(res.statusCode).toBe(303);
      }
      const archive = path.join(work, 'pg.tar.gz');
      const { manifest } = await createBackup({ config: t.config, db: t.db }, archive);
      expect(manifest.engine).toBe('postgres');
      expect(manifest.database).toBeNull();
      expect(manifest.tables).toEqual(await tableCounts(t.app));
      const stored = await t.db.selectFrom('fale_aqui_arquivos').select(['caminho']).execute();
      expect(stored.length).toBeGreaterThanOrEqual(2);
      for (const { caminho } of stored) {
        const entry = manifest.files.find((f) => f.path === `uploads/${caminho}`);
        expect(entry?.sha256).toBe(sha256(readFileSync(path.join(t.uploadsDir, caminho))));
      }
      const peek = await extractTo(archive, path.join(work, 'pg-peek'));
      expect(existsSync(path.join(peek, 'database.sqlite'))).toBe(false);

      const result = await restoreBackup(archive, path.join(work, 'pg-restored'), t.config);
      expect(result.databaseUrl).toBeNull();
      for (const f of manifest.files) expect(sha256(readFileSync(path.join(result.dir, f.path)))).toBe(f.sha256);
    });
  else
    it('backs up during a steady stream of writes, restores, and the site on the copy shows the copy', async () => {
      const admin = await createStaffUser(t.db, { papel: 'admin' });
      let stop = false;
      let n = 0;
      const writer = (async () => {
        while (!stop) {
          n++;
          await answerSurvey(n);
          if (n % 2 === 0) await sendMessage(n);
        }
      })();
      const settled = async (min: number) => {
        while (written.survey + written.messages < min) await new Promise((r) => setTimeout(r, 20));
      };
      await settled(6);
      const before = { survey: written.survey, messages: written.messages };

      const archive = path.join(work, 'site.tar.gz');
      const env = {
        NODE_ENV: 'test',
        DATABASE_URL: `sqlite:${(t.testDb.config as { filename: string }).filename}`,
        UPLOADS_DIR: t.uploadsDir,
        STORAGE_DRIVER: 'local',
      };
      const atSpawn = written.survey + written.messages;
      const backup = await run('backup', ['--to', archive], env);
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      const during = written.survey + written.messages;
      expect(during, 'the site kept taking writes while the backup command ran').toBeGreaterThan(atSpawn);
      await settled(during + 4);
      stop = true;
      await writer;
      expect(written.failed).toEqual([]);

      const manifest = JSON.parse(
        readFileSync(path.join(await extractTo(archive, path.join(work, 'peek')), 'manifest.json'), 'utf8'),
      ) as BackupManifest;
      // The copy caught the stream mid-way: more than before the command, fewer than at the end.
      const live = await tableCounts(t.app);
      expect(manifest.tables.respostas_nps).toBeGreaterThanOrEqual(before.survey);
      expect(manifest.tables.respostas_nps).toBeLessThan(live.respostas_nps!);
      expect(manifest.tables.fale_aqui).toBeGreaterThanOrEqual(before.messages);

      // Restore with the live site's settings: what it prints is what starts the copy.
      const target = path.join(work, 'restored');
      const restored = await run('restore', ['--from', archive, '--to', target], env);
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      const databaseUrl = /DATABASE_URL=(\S+)/.exec(restored.stdout)?.[1];
      const uploadsDir = /UPLOADS_DIR=(\S+)/.exec(restored.stdout)?.[1];
      expect(databaseUrl).toBe(`sqlite:${path.join(target, 'database.sqlite')}`);
      expect(uploadsDir).toBe(path.join(target, 'uploads'));

      const copy = await buildApp(
        loadConfig({
          NODE_ENV: 'test',
          DATABASE_URL: databaseUrl,
          UPLOADS_DIR: uploadsDir,
          STORAGE_DRIVER: 'local',
          MAIL_WORKER: 'false',
          SCHEDULED_JOBS: 'false',
          LOG_LEVEL: 'silent',
        }),
        { logger: false },
      );
      try {
        await copy.ready();
        // Every table has the rows the manifest counted.
        expect(await tableCounts(copy)).toEqual(manifest.tables);

        // A photo of the copy, served by the site on the copy, is the original's bytes.
        const cookie = await loginAs(copy, admin.email, admin.password);
        const last = await copy.db
          .selectFrom('fale_aqui_arquivos')
          .select(['id', 'caminho', 'sha256'])
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        const served = await copy.inject({ url: `/admin/mensagens/foto/${last.id}`, headers: { cookie } });
        expect(served.statusCode).toBe(200);
        const original = readFileSync(path.join(t.uploadsDir, last.caminho));
        expect(served.rawPayload.equals(original)).toBe(true);
        expect(sha256(served.rawPayload)).toBe(last.sha256);

        // The report's NPS is the one the copy's rows give.
        const today = saoPauloDay();
        const report = await copy.inject({ url: `/admin/pesquisa?de=${today}&ate=${today}`, headers: { cookie } });
        expect(report.statusCode).toBe(200);
        const shown = /data-nps-geral(?:="")?>([^<]+)</.exec(report.body)?.[1];
        const notes = await copy.db
          .selectFrom('respostas_nps')
          .select('nota_nps')
          .where('criado_em', '>=', saoPauloDayStartIso(today))
          .where('criado_em', '<', saoPauloDayStartIso(addDays(today, 1)))
          .where('nota_nps', 'is not', null)
          .execute();
        const scores = notes.map((r) => r.nota_nps!);
        expect(scores.length).toBeGreaterThanOrEqual(before.survey);
        const expected = formatNps(
          computeNps({
            total: scores.length,
            promotores: scores.filter((s) => s >= 9).length,
            detratores: scores.filter((s) => s <= 6).length,
          }),
        );
        expect(shown).toBe(expected);
      } finally {
        await copy.close();
      }
    });

  it('refuses a folder that is not empty, and the live uploads folder', async () => {
    const archive = path.join(work, 'quiet.tar.gz');
    await createBackup({ config: t.config, db: t.db }, archive);
    const busy = path.join(work, 'busy');
    mkdirSync(busy);
    writeFileSync(path.join(busy, 'algo.txt'), 'já estava aqui');
    await expect(restoreBackup(archive, busy)).rejects.toThrow(/não está vazia/);
    expect(readdirSync(busy)).toEqual(['algo.txt']);
    await expect(restoreBackup(archive, path.join(t.uploadsDir, 'sub'), t.config)).rejects.toThrow(/UPLOADS_DIR/);
    await expect(
      restoreBackup(archive, path.join(work, 'x'), {
        ...t.config,
        database: { engine: 'sqlite', filename: path.join(work, 'x', 'database.sqlite') },
      }),
    ).rejects.toThrow(/banco em uso/);
    // And the backup command never writes over an existing file.
    await expect(createBackup({ config: t.config, db: t.db }, archive)).rejects.toThrow(BackupError);
  });

  it('refuses an archive whose photo or database was changed (hash mismatch), leaving nothing behind', async () => {
    const unitId = (await t.db.selectFrom('unidades').select('id').where('ativo', '=', 1).executeTakeFirstOrThrow()).id;
    const sent = await postMessage(
      t.app,
      { nome_completo: 'Cliente', unidade_id: String(unitId), unidade: '', mensagem: 'Com foto' },
      [{ name: 'f.jpg', type: 'image/jpeg', data: await photo(3) }],
    );
    expect(sent.statusCode).toBe(303);
    const archive = path.join(work, 'original.tar.gz');
    const { manifest } = await createBackup({ config: t.config, db: t.db }, archive);
    expect(manifest.files.length).toBeGreaterThan(0);

    const photoTampered = await extractTo(archive, path.join(work, 'tamper-photo'));
    const victim = path.join(photoTampered, manifest.files[0]!.path);
    const bytes = readFileSync(victim);
    bytes[bytes.length - 3] = bytes[bytes.length - 3]! ^ 0xff;
    writeFileSync(victim, bytes);
    await tarball(photoTampered, path.join(work, 'tampered-photo.tar.gz'));
    const target = path.join(work, 'never');
    await expect(restoreBackup(path.join(work, 'tampered-photo.tar.gz'), target)).rejects.toThrow(/SHA-256/);
    expect(existsSync(target)).toBe(false);

    // A file added, and (SQLite) a byte of the database changed.
    const dbTampered = await extractTo(archive, path.join(work, 'tamper-db'));
    writeFileSync(path.join(dbTampered, 'uploads', 'intruso.jpg'), 'x');
    if (manifest.database) {
      const raw = readFileSync(path.join(dbTampered, 'database.sqlite'));
      raw[raw.length - 100] = raw[raw.length - 100]! ^ 0x01;
      writeFileSync(path.join(dbTampered, 'database.sqlite'), raw);
    }
    await tarball(dbTampered, path.join(work, 'tampered-db.tar.gz'));
    const refused = restoreBackup(path.join(work, 'tampered-db.tar.gz'), target);
    await expect(refused).rejects.toThrow(/intruso\.jpg: não consta do manifesto/);
    if (manifest.database) await expect(refused).rejects.toThrow(/database\.sqlite: SHA-256/);
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(work).filter((n) => n.startsWith('.restore-'))).toEqual([]);

    // Not a backup at all.
    writeFileSync(path.join(work, 'lixo.tar.gz'), 'isto não é um tar.gz');
    await expect(restoreBackup(path.join(work, 'lixo.tar.gz'), target)).rejects.toThrow(BackupError);
  });

  it('scheduled backups: one instance at a time, the newest BACKUP_KEEP kept', async () => {
    const dir = path.join(work, 'scheduled');
    const config = { ...t.config, backup: { dir, keep: 2, intervalMs: 3_600_000 } };
    const at = (h: number) => new Date(Date.UTC(2030, 0, 1, h));
    // Two instances asking at once: one writes the backup, the other finds the lease taken.
    const both = await Promise.all([
      runScheduledBackup({ db: t.db, config, owner: 'a' }, at(0)),
      runScheduledBackup({ db: t.db, config, owner: 'b' }, at(0)),
    ]);
    expect(both.filter(Boolean)).toHaveLength(1);
    // Not due again before the interval.
    expect(await runScheduledBackup({ db: t.db, config, owner: 'a' }, new Date(at(0).getTime() + 60_000))).toBeNull();
    for (const h of [1, 2, 3]) expect(await runScheduledBackup({ db: t.db, config, owner: 'b' }, at(h))).toBeTruthy();
    writeFileSync(path.join(dir, 'notas-do-operador.txt'), 'não é backup');
    await pruneBackups(dir, 2);
    expect(readdirSync(dir).sort()).toEqual([
      'backup-20300101T020000Z.tar.gz',
      'backup-20300101T030000Z.tar.gz',
      'notas-do-operador.txt',
    ]);
    const task = await t.db
      .selectFrom('tarefas_agendadas')
      .selectAll()
      .where('nome', '=', 'backup')
      .executeTakeFirstOrThrow();
    expect(task.proxima_em).toBe(new Date(at(3).getTime() + 3_600_000).toISOString());
    expect(task.bloqueado_ate).toBeNull();
  });
});

async function extractTo(archive: string, dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  await tarExtract({ file: archive, cwd: dir });
  return dir;
}

/** Rows per table, counted here (not by the code under test). */
async function tableCounts(app: App): Promise<Record<string, number>> {
  const names =
    app.dbEngine === 'postgres'
      ? await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(app.db)
      : await sql<{ name: string }>`select name from sqlite_master
          where type = 'table' and name not like 'sqlite_%'`.execute(app.db);
  const out: Record<string, number> = {};
  for (const { name } of names.rows)
    out[name] = Number(
      (await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`.execute(app.db)).rows[0]!.n,
    );
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
