// The exports have two writers of one format (src/db/csv/): the app's (index.ts, every
// engine) and, on PostgreSQL, the database's (sql.ts). On a small volume with hostile cells (formula
// starts, separators, quotes, line breaks, an instant of the daylight-saving years, unknown
// codes, odd phones) and more rows than one batch, both must write the same bytes.
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../../src/db/index';
import { seedVolume } from '../../src/db/seeds/volume';
import { createFaleAquiRepository } from '../../src/features/feedback/messages/fale-aqui.repository';
import { createMessagesAdminService } from '../../src/features/feedback/messages/inbox.service';
import { resolvePeriod } from '../../src/features/feedback/survey/nps';
import { createSurveyReportService } from '../../src/features/feedback/survey/report.service';
import { createSurveyRepository } from '../../src/features/feedback/survey/survey.repository';
import { createLeadsRepository } from '../../src/features/franchise/leads.repository';
import { createPanelService } from '../../src/features/franchise/panel.service';
import { toCsv } from '../../src/features/privacy/export';
import { csvStream } from '../../src/db/csv/index';
import { createTestApp, type TestContext } from '../helpers/app';

let t: TestContext;

const HOSTILE = [
  '=HYPERLINK("http://x";"y")',
  '+55 11 99999-0000',
  '-1',
  '@SUM(A1)',
  '\tcom tab',
  'linha 1\r\nlinha 2',
  'aspas "assim"; e ponto e vírgula',
  'acentuação: ação, pão, 😀',
  '',
];

async function text(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += chunk;
  return out;
}

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  await seedVolume(t.testDb.config, { unidades: 4, anos: 1, escala: 0.05, semente: 11 });
  const db = t.db;
  const answers = await db
    .selectFrom('respostas_nps')
    .select('id')
    .orderBy('id', 'desc')
    .limit(HOSTILE.length)
    .execute();
  for (const [i, { id }] of answers.entries()) {
    const value = HOSTILE[i]!;
    await db
      .updateTable('respostas_nps')
      .set({ comentario: value, nome_cliente: i % 2 ? value : null, contato_cliente: i % 3 ? null : value })
      .where('id', '=', id)
      .execute();
    await db
      .updateTable('respostas_itens')
      .set({ texto: value, texto_ok: i % 2 })
      .where('resposta_id', '=', id)
      .execute();
  }
  // An instant of the daylight-saving years (São Paulo was UTC-2 that day).
  await db
    .updateTable('respostas_nps')
    .set({ criado_em: '2018-01-15T12:34:56.000Z' })
    .where('id', '=', answers[0]!.id)
    .execute();

  const messages = await db.selectFrom('fale_aqui').select('id').orderBy('id', 'desc').limit(HOSTILE.length).execute();
  for (const [i, { id }] of messages.entries()) {
    const value = HOSTILE[i]!;
    await db
      .updateTable('fale_aqui')
      .set({
        mensagem: value || 'vazia',
        nome_completo: value,
        anonimo: i % 2,
        status: i === 0 ? 'novo' : 'lida',
        contato_email: i % 2 ? null : value,
        primeira_resposta_em: i % 3 ? null : '2018-10-20T02:59:00.000Z',
      })
      .where('id', '=', id)
      .execute();
  }

  const leads = await db
    .selectFrom('franquia_leads')
    .select('id')
    .orderBy('id', 'desc')
    .limit(HOSTILE.length)
    .execute();
  const phones = [
    '+5511987654321',
    '+551133334444',
    '(11) 98765-4321',
    '+1 555 0100',
    '=1',
    '123',
    '55;1"',
    '+55119876543210',
    '',
  ];
  for (const [i, { id }] of leads.entries()) {
    await db
      .updateTable('franquia_leads')
      .set({
        nome_completo: HOSTILE[i]!,
        cidade_regiao: HOSTILE[(i + 1) % HOSTILE.length]!,
        whatsapp: phones[i % phones.length]!,
        status: i === 0 ? 'desconhecido' : 'novo',
        ...(i === 1 ? { faixa_investimento: 'codigo_antigo' } : {}),
      })
      .where('id', '=', id)
      .execute();
  }
}, 120_000);
afterAll(async () => t?.close());

describe('the two CSV writers', () => {
  it('write the same bytes for the survey, inbox and lead exports (the database writes on PostgreSQL)', async () => {
    const survey = createSurveyRepository(t.db);
    const inbox = createFaleAquiRepository(t.db);
    const leads = createLeadsRepository(t.db);
    expect(survey.writesCsv).toBe(isPostgres(t.db));
    expect(inbox.writesCsv).toBe(isPostgres(t.db));
    expect(leads.writesCsv).toBe(isPostgres(t.db));

    const surveyCsv = async (repo: typeof survey) => {
      const { header, rows } = await createSurveyReportService(repo, repo, 250).exportRows({
        unitIds: null,
        period: resolvePeriod('2000-01-01', undefined),
      });
      return text(csvStream(header, rows));
    };
    const inboxCsv = (repo: typeof inbox) => {
      const { header, rows } = createMessagesAdminService(repo, {} as never, {} as never, {} as never).exportRows({
        unitIds: null,
      });
      return text(csvStream(header, rows));
    };
    const leadsCsv = (repo: typeof leads) =>
      text(createPanelService(repo).exportCsv({ q: '', status: '', de: '', ate: '', options: {} }));

    const app = {
      survey: await surveyCsv({ ...survey, writesCsv: false }),
      inbox: await inboxCsv({ ...inbox, writesCsv: false }),
      leads: await leadsCsv({ ...leads, writesCsv: false }),
    };
    const database = { survey: await surveyCsv(survey), inbox: await inboxCsv(inbox), leads: await leadsCsv(leads) };

    expect(app.survey).toContain(`'=HYPERLINK(""http://x"";""y"")`);
    expect(app.survey).toContain('"linha 1\r\nlinha 2"');
    expect(app.survey).toContain('"aspas ""assim""; e ponto e vírgula"');
    expect(app.survey).toContain('15/01/2018 10:34');
    expect(app.inbox).toContain('19/10/2018 23:59');
    expect(app.leads).toContain('(11) 98765-4321');
    expect(app.leads).toContain('codigo_antigo');
    expect(app.leads).toContain('desconhecido');

    expect(database.survey).toBe(app.survey);
    expect(database.inbox).toBe(app.inbox);
    expect(database.leads).toBe(app.leads);
  }, 120_000);

  it('read in small batches by the database, lose or repeat no row at the batch edges', async () => {
    const survey = createSurveyRepository(t.db);
    const inbox = createFaleAquiRepository(t.db);
    const leads = createLeadsRepository(t.db);
    if (!survey.writesCsv) {
      expect(isPostgres(t.db)).toBe(false);
      return;
    }
    const all = async <C>(read: (after: C | null, size: number) => Promise<{ csv: string; rows: number; last: C }>) => {
      const whole = await read(null, 1_000_000);
      let joined = '';
      let rows = 0;
      let after: C | null = null;
      for (;;) {
        const batch = await read(after, 7);
        joined += batch.csv;
        rows += batch.rows;
        if (batch.rows < 7) break;
        after = batch.last;
      }
      expect(rows).toBe(whole.rows);
      expect(rows).toBeGreaterThan(7);
      expect(joined).toBe(whole.csv);
    };
    const period = resolvePeriod('2000-01-01', undefined);
    const filter = { unitIds: null, fromIso: period.fromIso, toIso: period.toIso };
    const cells = {
      questions: [],
      options: {},
      categories: { promotores: 'P', neutros: 'N', detratores: 'D' },
      allRight: 'ok',
    };
    await all((after: { criadoEm: string; id: number } | null, size) => survey.csvBefore(filter, after, size, cells));
    await all((after: { id: number } | null, size) => inbox.csvBefore({ unitIds: null }, after?.id ?? null, size, {}));
    await all((after: { criado_em: string; id: number } | null, size) => leads.csvAfter({}, after, size));
  });

  it('the personal-data export writes its CSV files by the same rules (no copy of its own)', () => {
    const rows = [{ a: '=1', b: 'x;y' }, { a: null, c: 'q"u\nz' }, { b: -5 }];
    expect(toCsv(rows)).toBe('\uFEFFa;b;c\r\n\'=1;"x;y";\r\n;;"q""u\nz"\r\n;-5;\r\n');
    expect(toCsv([])).toBe('\uFEFF\r\n');
  });
});
