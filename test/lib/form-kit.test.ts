// Unit tests of the form kit (src/lib/form): text kinds and one parser each.
import { describe, expect, it } from 'vitest';
import {
  charCount,
  cnpjCheckDigits,
  echoValue,
  formatCnpj,
  formatCpf,
  idList,
  isDay,
  isValidCnpj,
  isValidCpf,
  moneyInputValue,
  multiLine,
  newEnvioId,
  normalizePhone,
  oneLine,
  parseCep,
  parseCnpj,
  parseCpf,
  parseDay,
  parseEmail,
  parseId,
  parseInteger,
  parseMoney,
  parsePhone,
  readEnvioId,
  take,
  toId,
  type FieldErrors,
} from '../../src/lib/form/index';
import { pageWindow, parsePage } from '../../src/lib/pagination';
import { quoteCustomerText } from '../../src/platform/mail/quote';
import { csvLines, csvStream, defuseCell } from '../../src/db/csv/index';
import {
  addDays,
  formatDateTime,
  formatDateTimeCsv,
  saoPauloDay,
  saoPauloDayStartIso,
  saoPauloYearMonth,
} from '../../src/lib/time';

const err = (r: { ok: boolean; error?: string }) => (r.ok ? null : r.error);

describe('one-line text', () => {
  it('trims, normalises to NFC and counts code points', () => {
    expect(oneLine('  cafe\u0301  ', { max: 10 })).toEqual({ ok: true, value: 'café' });
    expect(oneLine('😀😀😀', { max: 3 })).toEqual({ ok: true, value: '😀😀😀' });
    expect(charCount('😀a')).toBe(2);
  });
  it('refuses CR, LF, TAB, every other C0/C1 control, DEL and U+2028/2029', () => {
    for (const c of [
      '\r',
      '\n',
      '\t',
      '\u0001',
      '\u001b',
      '\u007f',
      '\u0080',
      '\u0085',
      '\u009f',
      '\u2028',
      '\u2029',
    ]) {
      expect(err(oneLine(`a${c}b`, { max: 10 })), JSON.stringify(c)).toMatch(/Use uma linha só/);
    }
  });
  it('refuses NUL with its own message, even past the length limit', () => {
    expect(err(oneLine('a\u0000', { max: 10 }))).toMatch(/NUL/);
    expect(err(oneLine(`${'a'.repeat(100)}\u0000`, { max: 10 }))).toMatch(/NUL/);
  });
  it('required, min and max', () => {
    expect(err(oneLine('   ', { max: 10, required: 'Informe.' }))).toBe('Informe.');
    expect(oneLine(undefined, { max: 10 })).toEqual({ ok: true, value: '' });
    expect(err(oneLine('ab', { max: 10, min: 3 }))).toBe('Digite pelo menos 3 caracteres.');
    expect(err(oneLine('abcd', { max: 3 }))).toBe('Use no máximo 3 caracteres (você digitou 4).');
    expect(err(oneLine('x'.repeat(10_000_000), { max: 3 }))).toBe('Use no máximo 3 caracteres.');
  });
  it('reads a repeated field as its first string and ignores objects', () => {
    expect(oneLine(['a', 'b'], { max: 5 })).toEqual({ ok: true, value: 'a' });
    expect(oneLine({ a: 1 }, { max: 5 })).toEqual({ ok: true, value: '' });
  });
});

describe('multi-line text', () => {
  it('keeps LF and TAB, turns CRLF into LF', () => {
    expect(multiLine('a\r\n\tb\nc', { max: 20 })).toEqual({ ok: true, value: 'a\n\tb\nc' });
  });
  it('refuses a lone CR and other controls, and NUL', () => {
    expect(err(multiLine('a\rb', { max: 20 }))).toMatch(/controle/);
    expect(err(multiLine('a\u0007b', { max: 20 }))).toMatch(/controle/);
    expect(err(multiLine('a\u0085b', { max: 20 }))).toMatch(/controle/);
    expect(err(multiLine('a\u0000b', { max: 20 }))).toMatch(/NUL/);
  });
  it('echoValue shows a refused value again without controls', () => {
    expect(echoValue('a\u0000b\r\nc', { multiLine: true })).toBe('ab\nc');
    expect(echoValue('a\nb')).toBe('a b');
  });
});

describe('e-mail', () => {
  it('accepts usual addresses, keeps case unless asked', () => {
    expect(parseEmail(' Maria.Silva+x@Example.com.br ')).toEqual({ ok: true, value: 'Maria.Silva+x@Example.com.br' });
    expect(parseEmail('A@B.CO', { lowerCase: true })).toEqual({ ok: true, value: 'a@b.co' });
    expect(parseEmail('')).toEqual({ ok: true, value: '' });
  });
  it('refuses what is not one address', () => {
    for (const bad of [
      'a',
      'a@b',
      'a@b.',
      'a@.b',
      'a@b..c',
      'a b@c.com',
      'a@b@c.com',
      '"a"@b.com',
      'a@b.com, c@d.com',
      '<a@b.com>',
      'maria\uFFFD@b.com',
      'a@b\uFFFD.com',
      'a@b.com\nBcc: c@d.com',
      `${'a'.repeat(65)}@b.com`,
      `a@${'b'.repeat(250)}.com`,
    ]) {
      expect(parseEmail(bad).ok, bad).toBe(false);
    }
    expect(err(parseEmail('', { required: 'Informe o e-mail.' }))).toBe('Informe o e-mail.');
  });
});

describe('Brazilian phone / WhatsApp', () => {
  it('normalises the usual ways of typing to +55', () => {
    expect(normalizePhone('(11) 98765-4321')).toBe('+5511987654321');
    expect(normalizePhone('+55 11 98765-4321')).toBe('+5511987654321');
    expect(normalizePhone('011 98765 4321')).toBe('+5511987654321');
    expect(normalizePhone('0055 11 3045-1200')).toBe('+551130451200');
    expect(normalizePhone('11.3045.1200')).toBe('+551130451200');
  });
  it('refuses foreign numbers, bad area codes, mobiles without 9, letters', () => {
    for (const bad of [
      '+1 212 555 1234',
      '(00) 98765-4321',
      '(11) 88765-43210',
      '(11) 1234-5678',
      '3045-1200',
      'ligue já',
      '11 9876-ABCD',
    ]) {
      expect(normalizePhone(bad), bad).toBeNull();
    }
    expect(err(parsePhone('x'))).toMatch(/DDD/);
    expect(parsePhone('')).toEqual({ ok: true, value: '' });
  });
});

describe('CEP, ids, integers, money, days', () => {
  it('CEP', () => {
    expect(parseCep('05422001')).toEqual({ ok: true, value: '05422-001' });
    expect(parseCep('05422-001')).toEqual({ ok: true, value: '05422-001' });
    expect(parseCep('0542-001').ok).toBe(false);
    expect(parseCep('05422-00a').ok).toBe(false);
  });
  it('integer ids: positive, 32-bit, no sign, no leading zero, no exponent', () => {
    expect(toId('12')).toBe(12);
    expect(toId(12)).toBe(12);
    expect(toId('2147483647')).toBe(2147483647);
    for (const bad of [
      '0',
      '-3',
      '1.5',
      '1e3',
      '012',
      ' 1',
      '',
      'abc',
      '2147483648',
      '99999999999',
      null,
      undefined,
      1.5,
      {},
    ]) {
      expect(toId(bad), String(bad)).toBeNull();
    }
    expect(parseId(' 7 ')).toEqual({ ok: true, value: 7 });
    expect(idList(['3', '3', 'x', '4', '-1'])).toEqual([3, 4]);
  });
  it('integers in a range', () => {
    expect(parseInteger('', 0, 10, 5)).toEqual({ ok: true, value: 5 });
    expect(parseInteger('-3', -5, 10, 0)).toEqual({ ok: true, value: -3 });
    expect(parseInteger('11', 0, 10, 0).ok).toBe(false);
    expect(parseInteger('1e1', 0, 100, 0).ok).toBe(false);
  });
  it('money in pt-BR → cents', () => {
    expect(parseMoney('129,90')).toEqual({ ok: true, value: 12990 });
    expect(parseMoney('R$ 1.299,90')).toEqual({ ok: true, value: 129990 });
    expect(parseMoney('129.90')).toEqual({ ok: true, value: 12990 });
    expect(parseMoney('1.299')).toEqual({ ok: true, value: 129900 });
    expect(parseMoney('')).toEqual({ ok: true, value: null });
    expect(err(parseMoney('-1'))).toMatch(/negativo/);
    expect(err(parseMoney('12,345'))).toMatch(/inválido/);
    expect(err(parseMoney('129,9,0'))).toMatch(/inválido/);
    expect(parseMoney('R$ 129')).toEqual({ ok: true, value: 12900 });
    expect(parseMoney('', { required: 'Informe o valor.' })).toEqual({ ok: false, error: 'Informe o valor.' });
  });
  it('money with a ceiling: R$ 100.000,00 accepted, a centavo more refused naming the ceiling', () => {
    expect(parseMoney('100.000,00', { max: 10_000_000 })).toEqual({ ok: true, value: 10_000_000 });
    expect(parseMoney('R$ 100.000,00', { max: 10_000_000 })).toEqual({ ok: true, value: 10_000_000 });
    expect(err(parseMoney('100.000,01', { max: 10_000_000 }))).toMatch(
      /Valor alto demais: o máximo é R\$\s100\.000,00\./,
    );
    expect(err(parseMoney('-0,01', { max: 10_000_000 }))).toMatch(/negativo/);
    // Shown again in a field and read back to the same centavos.
    for (const cents of [0, 1, 10, 12990, 129990, 10_000_000])
      expect(parseMoney(moneyInputValue(cents))).toEqual({ ok: true, value: cents });
    expect(moneyInputValue(129990)).toBe('1299,90');
  });
  it('CPF: formatted or bare, check digits verified, stored as 11 digits', () => {
    expect(parseCpf('123.456.789-09')).toEqual({ ok: true, value: '12345678909' });
    expect(parseCpf(' 12345678909 ')).toEqual({ ok: true, value: '12345678909' });
    expect(parseCpf('529 982 247-25')).toEqual({ ok: true, value: '52998224725' });
    expect(parseCpf('')).toEqual({ ok: true, value: '' });
    expect(parseCpf('', { required: 'Informe o CPF.' })).toEqual({ ok: false, error: 'Informe o CPF.' });
    for (const bad of [
      '123.456.789-00',
      '111.111.111-11',
      '00000000000',
      '1234567890',
      '123456789090',
      '123.456.789-0x',
    ])
      expect(err(parseCpf(bad)), bad).toMatch(/^CPF inválido/);
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('52998224724')).toBe(false);
    expect(formatCpf('52998224725')).toBe('529.982.247-25');
    expect(formatCpf('123')).toBe('123');
  });
  it('CNPJ: formatted or bare, numeric or alphanumeric, check digits verified, stored as 14 characters', () => {
    expect(parseCnpj('11.222.333/0001-81')).toEqual({ ok: true, value: '11222333000181' });
    expect(parseCnpj('11222333000181')).toEqual({ ok: true, value: '11222333000181' });
    // The alphanumeric CNPJ of the Receita Federal's example (issued since July 2026).
    expect(parseCnpj('12.abc.345/01de-35')).toEqual({ ok: true, value: '12ABC34501DE35' });
    expect(parseCnpj('')).toEqual({ ok: true, value: '' });
    for (const bad of [
      '11.222.333/0001-82',
      '11111111111111',
      '00.000.000/0000-00',
      '1122233300018',
      '112223330001811',
      '11.222.333/0001-8A',
      '11_222_333_0001_81',
    ])
      expect(err(parseCnpj(bad)), bad).toMatch(/^CNPJ inválido/);
    expect(cnpjCheckDigits('112223330001')).toBe('81');
    expect(cnpjCheckDigits('12ABC34501DE')).toBe('35');
    expect(isValidCnpj('11222333000181')).toBe(true);
    expect(isValidCnpj('11222333000180')).toBe(false);
    expect(formatCnpj('11222333000181')).toBe('11.222.333/0001-81');
    expect(formatCnpj('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(formatCnpj('123')).toBe('123');
  });
  it('calendar days', () => {
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('2026-02-30')).toBe(false);
    expect(parseDay('2026-13-01').ok).toBe(false);
    expect(parseDay('')).toEqual({ ok: true, value: '' });
  });
});

describe('pagination', () => {
  it('parsePage: a positive integer, anything else the fallback', () => {
    expect(parsePage('3')).toBe(3);
    for (const bad of ['0', '-1', 'abc', '1.5', undefined, '']) expect(parsePage(bad)).toBe(1);
    expect(parsePage('50', 25, 100)).toBe(50);
    expect(parsePage('500', 25, 100)).toBe(100);
  });
  it('pageWindow: offset and size; a page past the end shows the last', () => {
    expect(pageWindow(60, 25, '2')).toEqual({ page: 2, pages: 3, total: 60, size: 25, offset: 25, outOfRange: false });
    expect(pageWindow(60, 25, '9')).toMatchObject({ page: 3, offset: 50, outOfRange: true });
    expect(pageWindow(0, 25, undefined)).toMatchObject({ page: 1, pages: 1, offset: 0 });
  });
});

describe('envio_id, take, quoting, CSV cells, São Paulo clock', () => {
  it('envio ids are 128 random bits in base64url; a malformed one is ignored', () => {
    const a = newEnvioId();
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(newEnvioId()).not.toBe(a);
    expect(readEnvioId({ envio_id: a })).toBe(a);
    expect(readEnvioId({ envio_id: 'short' })).toBeNull();
    expect(readEnvioId({ envio_id: 'a b c d e f g h' })).toBeNull();
    expect(readEnvioId({})).toBeNull();
  });
  it('take records the first error of a field', () => {
    const e: FieldErrors = {};
    expect(take(e, 'x', { ok: false, error: 'primeiro' }, '')).toBe('');
    take(e, 'x', { ok: false, error: 'segundo' }, '');
    expect(e).toEqual({ x: 'primeiro' });
  });
  it('quotes every line of customer text', () => {
    expect(quoteCustomerText('a\r\n\nUnidade: X')).toBe('> a\n>\n> Unidade: X');
  });
  it('defuses formula cells', () => {
    for (const c of ['=1', '+1', '-1', '@a', '\tx', '\rx']) expect(defuseCell(c)).toBe(`'${c}`);
    expect(defuseCell('ok')).toBe('ok');
    expect(defuseCell(-1)).toBe(-1);
  });
  it('writes CSV lines: ";" between cells, CRLF, quotes only where needed, formulas defused', () => {
    expect(csvLines([[1, 'a;b', 'diz "oi"', 'linha\nnova', '=SOMA(A1)', null, undefined, -2, '']])).toBe(
      '1;"a;b";"diz ""oi""";"linha\nnova";\'=SOMA(A1);;;-2;\r\n',
    );
    expect(csvLines([['-1;x']])).toBe('"\'-1;x"\r\n');
    expect(csvLines([])).toBe('');
  });
  it('streams a BOM, the header and one chunk per batch', async () => {
    async function* batches() {
      yield [[1, 'x']];
      yield [];
      yield [
        [2, 'y'],
        [3, 'z'],
      ];
    }
    const chunks: string[] = [];
    for await (const c of csvStream(['id', '+nome'], batches())) chunks.push(String(c));
    expect(chunks).toEqual(["\uFEFFid;'+nome\r\n", '1;x\r\n', '2;y\r\n3;z\r\n']);
  });
  it('CSV dates: the fixed UTC-3 path equals Intl for any instant since 2019, and DST years still use Intl', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const from = Date.parse('2019-02-17T00:00:00Z');
    const to = Date.parse('2031-01-01T00:00:00Z');
    for (let i = 0; i < 5000; i++) {
      const iso = new Date(from + Math.floor(rand() * (to - from))).toISOString();
      expect(formatDateTimeCsv(iso)).toBe(formatDateTime(iso).replace(',', ''));
    }
    // January 2018: São Paulo was on summer time (UTC-2).
    expect(formatDateTimeCsv('2018-01-10T12:00:00.000Z')).toBe('10/01/2018 10:00');
    expect(formatDateTimeCsv('2026-11-23T02:30:00.000Z')).toBe('22/11/2026 23:30');
  });
  it('São Paulo days and months (UTC-3, no DST)', () => {
    const lateUtc = new Date('2026-11-23T02:30:00Z'); // still the 22nd in São Paulo
    expect(saoPauloDay(lateUtc)).toBe('2026-11-22');
    expect(saoPauloYearMonth(new Date('2026-12-01T02:00:00Z'))).toEqual(['2026', '11']);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(saoPauloDayStartIso('2026-11-22')).toBe('2026-11-22T03:00:00.000Z');
  });
});
