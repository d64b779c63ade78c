// The form kit is the only place that parses e-mails, phones and ids, src/lib/pagination.ts
// the only place that pages, src/lib/time.ts the only São Paulo clock, and
// src/staff/access.ts the only per-unit access check. This check greps src/ for
// the shapes those parsers take; a second copy anywhere else fails the suite.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve('src');
const KIT = path.join('src', 'lib', 'form') + path.sep;
const TIME = path.join('src', 'lib', 'time.ts');
const PAGING = path.join('src', 'lib', 'pagination.ts');
const ACCESS = path.join('src', 'staff', 'access.ts');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

// Browser modules (src/client) only shape what a person types (input masks); the server decides.
const sources = files(ROOT)
  .filter((f) => !f.includes(`${path.sep}client${path.sep}`))
  .map((f) => ({ file: path.relative(process.cwd(), f), text: readFileSync(f, 'utf8') }));

/** [what, pattern, files allowed to hold it] */
const RULES: [string, RegExp, (file: string) => boolean][] = [
  // a regex literal with an @ between character classes: an e-mail pattern
  ['e-mail pattern', /\/\^?\[\^[^/\n]*\]\+?@/, (f) => f.startsWith(KIT)],
  ['e-mail pattern', /EMAIL_RE\s*=/, (f) => f.startsWith(KIT)],
  // a phone normaliser: a function named like one, or the "55" country prefix stripping
  ['phone normaliser', /function\s+normali[sz]e\w*(Phone|Whatsapp)/i, (f) => f.startsWith(KIT)],
  ['phone normaliser', /startsWith\('55'\)/, (f) => f.startsWith(KIT)],
  // an id parser: a function named like one, or the digits-only test of an id
  ['id parser', /function\s+(parse|to)\w*Id\b/, (f) => f.startsWith(KIT)],
  // (src/config.ts reads the operator's environment, e.g. a CIDR prefix length, not a form)
  [
    'id parser',
    /\/\^(\\d|\[1-9\]\[0-9\])\{\d*,?\d*\}\$\//,
    (f) => f.startsWith(KIT) || f === path.join('src', 'config.ts'),
  ],
  ['id parser', /pattern:\s*'\^\(?\\\\d/, (f) => f.startsWith(KIT)],
  // pagination arithmetic, and a second paging function under any of the names it had
  ['pagination', /Math\.ceil\(\s*\w+\s*\/\s*\w*(PAGE|page|PER|per|SIZE|size)\w*\s*\)/, (f) => f === PAGING],
  ['pagination', /\(\s*\w*page\w*\s*-\s*1\s*\)\s*\*/i, (f) => f === PAGING],
  ['pagination', /function\s+(paginate|parsePage|pageNumber|pageInfo|pageWindow|pageRows)\b/, (f) => f === PAGING],
  // the per-unit access check: a manager's unit list searched, or "admin → every unit" spelt out
  ['unit-access check', /unidadeIds\.(includes|some|indexOf|find)\(/, (f) => f === ACCESS],
  ['unit-access check', /papel\s*[!=]==?\s*'admin'\s*\?\s*null\b/, (f) => f === ACCESS],
  // the São Paulo clock
  ['São Paulo clock', /America\/Sao_Paulo/, (f) => f === TIME],
  ['São Paulo clock', /-03:00|3\s*\*\s*3600/, (f) => f === TIME],
  ['São Paulo clock', /timeZone:\s*TIME_ZONE/, (f) => f === TIME],
];

// Files that still carried their own parsers were moved onto the kit and src/lib/time.ts
// (docs/decisions/085). Nothing may be added to this list.
const NOT_YET_MOVED = new Set<string>([]);

describe(`no second copy in src/ of the form kit's parsers, paging, the São Paulo clock or the unit-access \
check`, () => {
  for (const [what, pattern, allowed] of RULES) {
    it(`${what}: ${pattern}`, () => {
      const offenders = sources
        .filter((s) => !allowed(s.file) && !NOT_YET_MOVED.has(s.file) && pattern.test(s.text))
        .map((s) => s.file);
      expect(offenders, `${what} outside its one home`).toEqual([]);
    });
  }

  it('the kit itself holds each parser, and src/lib/pagination.ts the paging', () => {
    const kit = sources
      .filter((s) => s.file.startsWith(KIT))
      .map((s) => s.text)
      .join('\n');
    for (const name of [
      'parseEmail',
      'normalizePhone',
      'parseCep',
      'parseCpf',
      'parseCnpj',
      'toId',
      'parseMoney',
      'parseDay',
      'oneLine',
      'multiLine',
    ]) {
      // A parser is a function or a const arrow (parseCpf and parseCnpj are one parseRegistry each).
      expect(kit, name).toMatch(new RegExp(`(function ${name}\\(|const ${name} = \\()`));
    }
    const paging = sources.find((s) => s.file === PAGING)?.text ?? '';
    for (const name of ['parsePage', 'pageWindow', 'pageRows']) expect(paging, name).toContain(`function ${name}`);
  });
});
