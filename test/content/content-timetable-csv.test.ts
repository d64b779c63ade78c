// Timetable CSV upload: multipart upload → preview with per-row problems (nothing
// written) → "Aplicar" re-validates the rows and replaces the week in one transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTimetableCsv } from '../../src/features/content/timetable/timetable-csv';
import { createTestApp, type TestContext } from '../helpers/app';
import { form } from '../helpers/http';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';

let t: TestContext;
let cookie: string;
let token: string;
const base = '/admin/conteudo/unidades/2/aulas';

function multipart(fields: Record<string, string>, file?: { name: string; content: string | Buffer; type?: string }) {
  const boundary = `----conteudo${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="arquivo"; filename="${file.name}"\r\nContent-Type: ` +
          `${file.type ?? 'text/csv'}\r\n\r\n`,
      ),
    );
    parts.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(content: string | Buffer, withToken = true) {
  const body = multipart(withToken ? { csrf_token: token } : {}, { name: 'grade.csv', content });
  return t.app.inject({
    method: 'POST',
    url: `${base}/csv`,
    headers: { cookie, 'content-type': body.contentType },
    payload: body.payload,
  });
}
const week = () =>
  t.db
    .selectFrom('aulas')
    .select(['dia_semana', 'inicio', 'fim', 'modalidade_id', 'professor', 'sala'])
    .where('unidade_id', '=', 2)
    .orderBy('dia_semana')
    .orderBy('inicio')
    .execute();
const hiddenRows = (html: string) => {
  const m = /name="linhas" value="([^"]*)"/.exec(html);
  return m
    ? m[1]!
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&#39;/g, "'")
    : null;
};

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createStaffUser(t.db, { papel: 'admin' });
  cookie = await loginAs(t.app, admin.email, admin.password);
  token = await staffToken(t.app, cookie, base);
});
afterAll(async () => t?.close());

const GOOD =
  '\uFEFFdia_semana;inicio;fim;modalidade;professor;sala\r\nSegunda-feira;07:00;07:50;Natação;Ana ' +
  'Souza;Piscina\r\nterca;7:00;07:50;pilates;"Bruno ""B"" ' +
  'Lima";Estúdio\r\nSábado;09:00;10:00;Hidroginástica;;Piscina\r\n';

describe('timetable CSV', () => {
  it('parses pt-BR weekdays, quotes, BOM and CRLF', () => {
    const parsed = parseTimetableCsv(GOOD);
    expect(parsed.problems).toEqual([]);
    expect(parsed.rows).toHaveLength(3);
    expect(parsed.rows[1]).toEqual({
      line: 3,
      values: {
        dia_semana: 'terca',
        inicio: '7:00',
        fim: '07:50',
        modalidade: 'pilates',
        professor: 'Bruno "B" Lima',
        sala: 'Estúdio',
      },
    });
    expect(parseTimetableCsv('dia;hora\n1;2').problems[0]).toMatch(/Cabeçalho sem as colunas obrigatórias/);
  });

  it('shows a preview, writes nothing, then applies the rows on "Aplicar"', async () => {
    const before = await week();
    const preview = await upload(GOOD);
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain('3 aulas prontas para importar');
    expect(preview.body).toContain('Bruno &quot;B&quot; Lima');
    expect(await week()).toEqual(before);
    const rows = hiddenRows(preview.body);
    expect(rows).not.toBeNull();

    const apply = await t.app.inject({
      method: 'POST',
      url: `${base}/csv/aplicar`,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: token, linhas: rows! }),
    });
    expect(apply.statusCode).toBe(303);
    expect(apply.headers.location).toBe(`${base}?ok=grade_importada`);
    const after = await week();
    expect(after).toHaveLength(3);
    expect(after[1]).toMatchObject({ dia_semana: 2, inicio: '07:00', professor: 'Bruno "B" Lima', sala: 'Estúdio' });
    expect(after[2]).toMatchObject({ dia_semana: 6, professor: null });
    expect((await t.app.inject('/Detalhes.php?id=2')).body).toContain('Bruno &quot;B&quot; Lima');
    const audit = await t.db
      .selectFrom('auditoria')
      .selectAll()
      .where('entidade', '=', 'grade')
      .where('entidade_id', '=', 2)
      .execute();
    expect(audit.map((a) => a.acao)).toEqual(['importar_csv']);
    expect(JSON.parse(audit[0]!.antes!)).toHaveLength(before.length);
  });

  it('lists every bad row with its problems and offers no "Aplicar"', async () => {
    const before = await week();
    const csv = [
      'dia_semana;inicio;fim;modalidade;professor;sala',
      'feriado;07:00;07:50;Natação;;Piscina',
      'segunda;08:00;07:00;Natação;;Piscina',
      'segunda;09:00;09:50;Capoeira;;Sala 1',
      'quarta;10:00;11:00;Natação;;Piscina',
      'quarta;10:30;11:30;Hidroginástica;;piscina',
    ].join('\n');
    const res = await upload(csv);
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('4 linhas têm problemas');
    expect(res.body).toContain('Dia da semana inválido');
    expect(res.body).toContain('A aula precisa terminar depois de começar.');
    expect(res.body).toContain('Modalidade desconhecida ou inativa: &quot;Capoeira&quot;');
    expect(res.body).toMatch(
      /Conflito de sala: Piscina já tem Natação na quarta-feira das 10:00 às 11:00\. \(linha 5\)/,
    );
    expect(hiddenRows(res.body)).toBeNull();
    expect(await week()).toEqual(before);
  });

  it('re-validates the rows sent back to "Aplicar" (a tampered hidden field changes nothing)', async () => {
    const before = await week();
    const tampered = JSON.stringify([
      { line: 2, values: { dia_semana: '1', inicio: '10:00', fim: '09:00', modalidade: 'Natação' } },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `${base}/csv/aplicar`,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: token, linhas: tampered }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('A aula precisa terminar depois de começar.');
    const garbage = await t.app.inject({
      method: 'POST',
      url: `${base}/csv/aplicar`,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: token, linhas: '{not json' }),
    });
    expect(garbage.statusCode).toBe(422);
    expect(await week()).toEqual(before);
  });

  it('refuses an empty or binary file, a missing file and a missing CSRF token', async () => {
    expect((await upload('')).statusCode).toBe(422);
    const bin = await upload(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
    expect(bin.statusCode).toBe(422);
    expect(bin.body).toContain('O arquivo não é um CSV de texto.');
    const none = multipart({ csrf_token: token });
    const missing = await t.app.inject({
      method: 'POST',
      url: `${base}/csv`,
      headers: { cookie, 'content-type': none.contentType },
      payload: none.payload,
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.body).toContain('Escolha um arquivo CSV.');
    expect((await upload(GOOD, false)).statusCode).toBe(403);
  });
});
