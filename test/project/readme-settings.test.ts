// The README's settings table is the operator's reference: every variable src/config.ts
// reads must have a row there, with the schema's default, and .env.example names no
// variable the schema does not know.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvSchema } from '../../src/config';

const ROOT = path.resolve(__dirname, '../..');
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The rows of the README table under "## Settings": variable → default cell. */
function settingsRows(): Map<string, string> {
  const start = readme.indexOf('\n## Settings');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    // | `NAME` | default | meaning |
    const name = /^`([A-Z][A-Z0-9_]*)`$/.exec(cells[1] ?? '');
    if (name?.[1]) rows.set(name[1], cells[2] ?? '');
  }
  return rows;
}

const keys = Object.keys(EnvSchema.properties);

describe('README settings table', () => {
  const rows = settingsRows();

  it('has a row for every setting of src/config.ts', () => {
    expect(keys.length).toBeGreaterThan(20);
    expect(keys.filter((k) => !rows.has(k))).toEqual([]);
  });

  it('lists no setting that src/config.ts does not read', () => {
    expect([...rows.keys()].filter((k) => !keys.includes(k))).toEqual([]);
  });

  it("gives the schema's default for every setting that has one", () => {
    const wrong: string[] = [];
    for (const [key, schema] of Object.entries(EnvSchema.properties)) {
      const fallback = (schema as { default?: unknown }).default;
      if (fallback === undefined) continue;
      const cell = rows.get(key) ?? '';
      if (!cell.includes(`\`${String(fallback)}\``)) wrong.push(`${key}: "${cell}" lacks \`${String(fallback)}\``);
    }
    expect(wrong).toEqual([]);
  });

  it('.env.example names only settings the schema knows', () => {
    const example = readFileSync(path.join(ROOT, '.env.example'), 'utf8');
    const named = [...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1] as string);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((k) => !keys.includes(k))).toEqual([]);
  });
});
