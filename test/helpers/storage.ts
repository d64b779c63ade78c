// What a test app holds of uploads, in any state: the files under UPLOADS_DIR (relative
// paths; "*.tmp" and the ".spool" of files being received included) and, for the
// database driver, the rows of `arquivos` (a temporary one shown as "<key>.tmp").
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { TestContext } from './app';

export async function storedFiles(t: Pick<TestContext, 'app' | 'uploadsDir'>): Promise<string[]> {
  const out: string[] = [];
  if (t.app.storage.driver === 'database') {
    const rows = await t.app.db.selectFrom('arquivos').select(['chave', 'finalizado_em']).execute();
    out.push(...rows.map((r) => (r.finalizado_em === null ? `db:${r.chave}.tmp` : `db:${r.chave}`)));
  }
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const full = path.join(dir, name);
      let info;
      try {
        info = statSync(full); // a spool file may go between readdir and stat
      } catch {
        continue;
      }
      if (info.isDirectory()) walk(full);
      else out.push(path.relative(t.uploadsDir, full).split(path.sep).join('/'));
    }
  };
  walk(t.uploadsDir);
  return out.sort();
}

/** The bytes of a final stored file (through the driver, as staff and the mail worker read it). */
export async function readStored(t: Pick<TestContext, 'app'>, key: string): Promise<Buffer> {
  const file = await t.app.storage.get(key);
  if (!file) throw new Error(`not stored: ${key}`);
  const chunks: Buffer[] = [];
  for await (const c of file.open()) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
