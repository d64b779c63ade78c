// The large exports are written by the database (src/db/csv/sql.ts), by the rules of the app's
// writer (src/db/csv/index.ts). On a small volume with hostile cells (formula starts,
// separators, quotes, line breaks, an instant of the daylight-saving years, unknown codes, odd
// phones) and more rows than one batch, the database's lines must be the bytes the app's rules
// give for the stored rows, on each engine and on the connection exports use (on SQLite the
// read worker, with its own copy of the SQL functions).
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDb } from '../../src/db/index';
import { seedVolume } from '../../src/db/seeds/volume';
import { createFaleAquiRepository } from '../../src/features/feedback/messages/fale-aqui.repository';
import { createMessagesAdminService } from '../../src/features/feedback/messages/inbox.service';
import { createSurveyReportService } from '../../src/features/feedback/survey/report.service';
import { createSurveyRepository } from '../../src/features/feedback/survey/survey.repository';
import { createLeadsRepository } from '../../src/features/franchise/leads.repository';
import { createPanelService } from '../../src/features/franchise/panel.service';
import { toCsv } from '../../src/features/privacy/export';
import { csvDate, csvLines, csvStream } from '../../src/db/csv/index';
import { STATUS_LABEL } from '../../src/features/feedback/messages/inbox.service';
import { CATEGORY_LABEL, categoryOf, resolvePeriod } from '../../src/features/feedback/survey/nps';
import { OPTION_FIELD_NAMES, optionLabel, statusLabel } from '../../src/features/franchise/options';
import { formatPhone } from '../../src/lib/form/index';
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

/**
 * The app's rules (src/db/csv/index.ts and the labels the features own) applied to the stored
 * rows: what each export must write, newest first.
 */
async function expectedCsv() {
  const db = t.db;
  const questions = (await createSurveyRepository(db).allQuestionsWithOptions()).filter((q) => q.ativo === 1);
  const optionText = new Map(questions.flatMap((q) => q.opcoes.map((o) => [o.id, o.texto] as const)));
  const answers = await db
    .selectFrom('respostas_nps as r')
    .innerJoin('unidades as u', 'u.id', 'r.unidade_id')
    .select(['r.id', 'r.criado_em', 'u.nome', 'r.nota_nps', 'r.nome_cliente', 'r.contato_cliente', 'r.comentario'])
    .orderBy('r.criado_em', 'desc')
    .orderBy('r.id', 'desc')
    .execute();
  const items = await db
    .selectFrom('respostas_itens')
    .select(['resposta_id', 'pergunta_id', 'opcao_id', 'texto', 'texto_ok'])
    .execute();
  const itemOf = new Map(items.map((i) => [`${i.resposta_id}:${i.pergunta_id}`, i]));
  const survey = answers.map((r) => {
    const category = categoryOf(r.nota_nps);
    return [
      r.id,
      csvDate(r.criado_em),
      r.nome,
      r.nota_nps ?? '',
      category ? CATEGORY_LABEL[category] : '',
      r.nome_cliente ?? '',
      r.contato_cliente ?? '',
      r.comentario ?? '',
      ...questions.map((q) => {
        const it = itemOf.get(`${r.id}:${q.id}`);
        if (!it) return '';
        if (it.opcao_id !== null) return optionText.get(it.opcao_id) ?? '';
        return [it.texto_ok ? 'Está tudo certo' : '', it.texto ?? ''].filter(Boolean).join(' · ');
      }),
    ];
  });

  const messages = await db
    .selectFrom('fale_aqui as m')
    .select((eb) => [
      'm.id',
      'm.criado_em',
      'm.unidade',
      'm.nome_completo',
      'm.anonimo',
      'm.status',
      'm.mensagem',
      'm.contato_email',
      'm.contato_telefone',
      'm.primeira_resposta_em',
      eb
        .selectFrom('fale_aqui_arquivos as a')
        .select((e2) => e2.fn.countAll<number>().as('n'))
        .whereRef('a.fale_aqui_id', '=', 'm.id')
        .as('fotos'),
    ])
    .orderBy('m.id', 'desc')
    .execute();
  const inbox = messages.map((m) => [
    m.id,
    csvDate(m.criado_em),
    m.unidade,
    m.nome_completo,
    m.anonimo ? 'sim' : 'não',
    STATUS_LABEL[m.status as keyof typeof STATUS_LABEL] ?? m.status,
    m.mensagem,
    Number(m.fotos ?? 0),
    m.contato_email ?? '',
    m.contato_telefone ?? '',
    m.primeira_resposta_em ? csvDate(m.primeira_resposta_em) : '',
  ]);

  const stored = await db
    .selectFrom('franquia_leads')
    .selectAll()
    .orderBy('criado_em', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const leads = stored.map((l) => [
    l.id,
    csvDate(l.criado_em),
    l.nome_completo,
    formatPhone(l.whatsapp),
    l.email,
    l.cidade_regiao,
    ...OPTION_FIELD_NAMES.map((f) => optionLabel(f, l[f])),
    statusLabel(l.status),
  ]);
  return { survey: csvLines(survey), inbox: csvLines(inbox), leads: csvLines(leads) };
}

/** An export's lines without its BOM and header. */
const body = (csv: string) => csv.slice(csv.indexOf('\r\n') + 2);

describe('the database writer of the CSV exports', () => {
  it('writes the bytes of the app rules for the survey, inbox and lead exports, on this engine', async () => {
    const exports = exportDb(t.db, t.app.readDb);
    const survey = createSurveyRepository(exports);
    const inbox = createFaleAquiRepository(exports);
    const leads = createLeadsRepository(exports);
    const { header, rows } = await createSurveyReportService(survey).exportRows({
      unitIds: null,
      period: resolvePeriod('2000-01-01', undefined),
    });
    const messages = createMessagesAdminService(inbox, {} as never, {} as never, {} as never).exportRows({
      unitIds: null,
    });
    const written = {
      survey: await text(csvStream(header, rows)),
      inbox: await text(csvStream(messages.header, messages.rows)),
      leads: await text(createPanelService(leads).exportCsv({ q: '', status: '', de: '', ate: '', options: {} })),
    };
    const expected = await expectedCsv();

    expect(expected.survey).toContain(`'=HYPERLINK(""http://x"";""y"")`);
    expect(expected.survey).toContain('"linha 1\r\nlinha 2"');
    expect(expected.survey).toContain('"aspas ""assim""; e ponto e vírgula"');
    expect(expected.survey).toContain('15/01/2018 10:34');
    expect(expected.inbox).toContain('19/10/2018 23:59');
    expect(expected.leads).toContain('(11) 98765-4321');
    expect(expected.leads).toContain('codigo_antigo');
    expect(expected.leads).toContain('desconhecido');

    expect(written.survey.startsWith('\uFEFF')).toBe(true);
    expect(body(written.survey)).toBe(expected.survey);
    expect(body(written.inbox)).toBe(expected.inbox);
    expect(body(written.leads)).toBe(expected.leads);
  }, 120_000);

  it('read in small batches by the database, lose or repeat no row at the batch edges', async () => {
    const exports = exportDb(t.db, t.app.readDb);
    const survey = createSurveyRepository(exports);
    const inbox = createFaleAquiRepository(exports);
    const leads = createLeadsRepository(exports);
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
