// docs/decisions/README.md is the way into the decision log: every record is listed there
// once, under one area, with the status its own `Status:` line gives; records wholly
// superseded sit only in the archive at the end; a superseding record exists, and no record
// cites a document outside the repository.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Walk up to the repository root, so the test keeps working if it moves into a subfolder.
function decisionsDir(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'docs', 'decisions'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('docs/decisions not found above the test');
    dir = parent;
  }
  return path.join(dir, 'docs', 'decisions');
}

const DIR = decisionsDir();
const files = readdirSync(DIR).filter((f) => /^\d{3}-.*\.md$/.test(f));
const index = readFileSync(path.join(DIR, 'README.md'), 'utf8');
const numbers = new Set(files.map((f) => f.slice(0, 3)));

const AREAS = ['Public site', 'Forms', 'Staff', 'Data', 'Operations', 'Privacy', 'Integrations'];
const ARCHIVE = 'Archive';

function statusOf(file: string): string {
  const head = readFileSync(path.join(DIR, file), 'utf8').split('\n').slice(0, 6);
  return head.find((l) => l.startsWith('Status: '))?.slice('Status: '.length) ?? '';
}

// A record whose status begins "superseded" is wholly replaced; "accepted; its … part
// superseded by N" is still in force and stays in its area.
const isSuperseded = (status: string) => status.startsWith('superseded');

interface Row {
  section: string;
  number: string;
  file: string;
  status: string;
}

// Every table row of the index with the `## ` section it sits under.
function rows(): Row[] {
  const found: Row[] = [];
  let section = '';
  for (const line of index.split('\n')) {
    if (line.startsWith('## ')) section = line.slice(3).trim();
    const m = /^\| (\d{3}) \| \[.*\]\((\d{3}-[^)]*\.md)\) \| (.*) \|$/.exec(line);
    if (m) found.push({ section, number: m[1] as string, file: m[2] as string, status: m[3] as string });
  }
  return found;
}

const sections = [...index.matchAll(/^## (.*)$/gm)].map((m) => (m[1] as string).trim());

describe('decision log', () => {
  it('every record has a Status line under its title', () => {
    expect(files.length).toBeGreaterThan(60);
    expect(files.filter((f) => !statusOf(f))).toEqual([]);
  });

  it('the index has the seven areas in order, then the archive last', () => {
    expect(sections).toEqual([...AREAS, ARCHIVE]);
  });

  it('the index lists every record once, in one area, with its status', () => {
    const listed = rows();
    expect(listed.filter((r) => r.section === '').map((r) => r.file)).toEqual([]);
    expect(listed.filter((r) => r.file.slice(0, 3) !== r.number).map((r) => r.file)).toEqual([]);
    const count = new Map<string, number>();
    for (const r of listed) count.set(r.file, (count.get(r.file) ?? 0) + 1);
    expect(files.filter((f) => count.get(f) !== 1)).toEqual([]);
    expect(listed.filter((r) => !files.includes(r.file)).map((r) => r.file)).toEqual([]);
    const wrong = listed.filter((r) => files.includes(r.file) && r.status !== statusOf(r.file));
    expect(wrong.map((r) => `${r.file}: "${r.status}" ≠ "${statusOf(r.file)}"`)).toEqual([]);
  });

  it('superseded records are only in the archive, and the archive holds nothing else', () => {
    const misplaced = rows().filter((r) => isSuperseded(r.status) !== (r.section === ARCHIVE));
    expect(misplaced.map((r) => `${r.section}: ${r.file}`)).toEqual([]);
  });

  it('every area lists its records in number order, and none is empty', () => {
    for (const area of [...AREAS, ARCHIVE]) {
      const inArea = rows()
        .filter((r) => r.section === area)
        .map((r) => r.number);
      expect(inArea.length, area).toBeGreaterThan(0);
      expect(inArea, area).toEqual([...inArea].sort());
    }
  });

  it('a record superseded or amended names a record that exists (or is listed)', () => {
    const unknown: string[] = [];
    for (const f of files) {
      for (const m of statusOf(f).matchAll(/(?:superseded|amended) by (\d{3})/g)) {
        const n = m[1] as string;
        if (!numbers.has(n) && !index.includes(`| ${n} |`)) unknown.push(`${f} → ${n}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('no record cites a document outside the repository or a tracker number', () => {
    const bad = files.filter((f) =>
      /DESIGN\.md|\.\.\/shared|\bissues? #?\d+/i.test(readFileSync(path.join(DIR, f), 'utf8')),
    );
    expect(bad).toEqual([]);
  });
});
