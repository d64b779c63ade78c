// Two instances on one database, each with its own UPLOADS_DIR (two machines): with the
// database storage driver a photo uploaded through one instance is served to staff and
// attached to the notification by the other. With the local driver
// and separate disks it is not — which is why the database driver is the default on
// PostgreSQL. Runs on both engines (the database driver works on SQLite too).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { deliverDueMail } from '../../src/platform/mail/worker';
import { createTestApp, type TestContext } from '../helpers/app';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { createStaffUser, loginAs } from '../helpers/staff';
import { postMessage } from '../helpers/upload';

const NOTIFY = 'avisos@academia.example';

for (const driver of ['database', 'local'] as const) {
  describe(`${driver} driver, two instances with separate disks`, () => {
    let smtp: TestSmtp;
    let a: TestContext;
    let b: App;
    let bDir: string;
    let unitId: number;
    beforeAll(async () => {
      smtp = await startSmtp();
      a = await createTestApp({ env: { ...smtp.env, NOTIFICATION_EMAIL: NOTIFY, STORAGE_DRIVER: driver } });
      bDir = mkdtempSync(path.join(os.tmpdir(), 'gym-uploads-b-'));
      b = await buildApp({ ...a.config, uploadsDir: bDir }, { db: a.testDb.handle, logger: false });
      await b.ready();
      unitId = (
        await a.db.selectFrom('unidades').select('id').where('ativo', '=', 1).orderBy('id').executeTakeFirstOrThrow()
      ).id;
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
      await smtp?.close();
      rmSync(bDir, { recursive: true, force: true });
    });

    it(
      driver === 'database'
        ? 'upload on A; staff on B see the photo, and B mails it'
        : 'upload on A; B cannot read it (404, mail retried)',
      async () => {
        const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#d04020' } })
          .jpeg()
          .toBuffer();
        const res = await postMessage(
          a.app,
          { nome_completo: 'Bia', unidade_id: String(unitId), unidade: '', mensagem: 'Esteira parada' },
          [{ name: 'esteira.jpg', type: 'image/jpeg', data: photo }],
        );
        expect(res.statusCode).toBe(303);
        const file = await a.db
          .selectFrom('fale_aqui_arquivos')
          .selectAll()
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();

        const admin = await createStaffUser(a.db, { papel: 'admin' });
        const cookie = await loginAs(b, admin.email, admin.password);
        const seen = await b.inject({ url: `/admin/mensagens/foto/${file.id}`, headers: { cookie } });

        smtp.messages.length = 0;
        const sent = await deliverDueMail({ db: b.db, config: b.config, storage: b.storage });
        if (driver === 'database') {
          expect(seen.statusCode).toBe(200);
          expect(seen.headers['content-type']).toBe('image/jpeg');
          expect(seen.headers['cache-control']).toBe('private, no-store');
          expect(createHash('sha256').update(seen.rawPayload).digest('hex')).toBe(file.sha256);
          expect(sent).toMatchObject({ sent: 1, retried: 0 });
          expect(smtp.messages).toHaveLength(1);
          const raw = smtp.messages[0]!.raw.replace(/\r?\n/g, '');
          expect(raw).toContain('foto-1.jpg');
          // the stored bytes, base64 in the message (the first 57 bytes make one full line)
          expect(raw).toContain(seen.rawPayload.subarray(0, 57).toString('base64'));
        } else {
          expect(seen.statusCode).toBe(404);
          expect(sent).toMatchObject({ sent: 0, retried: 1 });
          // A (which has the file) sends it
          const fromA = await deliverDueMail(
            { db: a.db, config: a.config, storage: a.app.storage },
            { now: new Date(Date.now() + 10 * 60_000) },
          );
          expect(fromA.sent).toBe(1);
        }
      },
    );
  });
}
