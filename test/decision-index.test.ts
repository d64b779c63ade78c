// docs/decisions/README.md is the way into the decision log: every record is listed there
// with the status its own `Status:` line gives, a superseding record exists, and no record
// cites a document outside the repository.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = path.resolve(__dirname, '..', 'docs', 'decisions');
const files = readdirSync(DIR).filter((f) => /^\d{3}-.*\.md$/.test(f));
const index = readFileSync(path.join(DIR, 'README.md'), 'utf8');
const numbers = new Set(files.map((f) => f.slice(0, 3)));

function statusOf(file: string): string {
  const head = readFileSync(path.join(DIR, file), 'utf8').split('\n').slice(0, 6);
  return head.find((l) => l.startsWith('Status: '))?.slice('Status: '.length) ?? '';
}

describe('decision log', () => {
  it('every record has a Status line under its title', () => {
    expect(files.length).toBeGreaterThan(60);
    expect(files.filter((f) => !statusOf(f))).toEqual([]);
  });

  it('the index lists every record with its status', () => {
    const missing = files.filter((f) => !index.includes(`(${f}) | ${statusOf(f)} |`));
    expect(missing).toEqual([]);
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
