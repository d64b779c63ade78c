// The install promises (docs/decisions/145), checked on the lock file: `npm ci`
// prints no EBADENGINE on any Node that "engines" allows, and every install script in the
// tree is either allowed or denied in "allowScripts" (none left "not yet covered").
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  allowScripts: Record<string, boolean>;
};
interface LockEntry {
  version?: string;
  optional?: boolean;
  hasInstallScript?: boolean;
  engines?: { node?: string } | string[];
}
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};
const installed = Object.entries(lock.packages).filter(([key]) => key.startsWith('node_modules/'));
const nameOf = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

// npm's own range logic (semver, already in the tree through fastify and sharp).
const semver = createRequire(import.meta.url)('semver') as {
  subset(sub: string, dom: string): boolean;
  validRange(r: string): string | null;
};

describe('install', () => {
  it('"engines" is made of ^x.y.z ranges, the form .ci/run reads, one per supported line', () => {
    const ranges = pkg.engines.node.split('||').map((r) => r.trim());
    expect(ranges.length).toBeGreaterThan(0);
    for (const range of ranges) expect(range).toMatch(/^\^\d+\.\d+\.\d+$/);
  });

  it('every dependency accepts every Node that "engines" allows (no EBADENGINE)', () => {
    const refusing: string[] = [];
    for (const [key, entry] of installed) {
      const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      // An optional platform package whose engines refuse the running Node is skipped by
      // npm without a warning (rollup's lzma binding wants 22.20+), and its parent runs without it.
      if (!wanted || entry.optional || !semver.validRange(wanted)) continue;
      if (!semver.subset(pkg.engines.node, wanted))
        refusing.push(`${nameOf(key)}@${entry.version} wants node ${wanted}`);
    }
    expect(refusing).toEqual([]);
  });

  it('every install script in the tree is allowed or denied in "allowScripts"', () => {
    const unreviewed = new Set<string>();
    for (const [key, entry] of installed) {
      // npm also makes up `node-gyp rebuild` for a package that ships a binding.gyp, even one
      // that says "gypfile": false (better-sqlite3 13: the lock file does not keep that flag).
      const gyp = existsSync(path.join(ROOT, key, 'binding.gyp'));
      if ((entry.hasInstallScript || gyp) && !(nameOf(key) in pkg.allowScripts)) unreviewed.add(nameOf(key));
    }
    expect([...unreviewed]).toEqual([]);
  });

  it('better-sqlite3 loads on this Node (its bundled binary needs Node-API 10: Node 22.14+)', () => {
    const require = createRequire(import.meta.url);
    const SQLite = require('better-sqlite3') as typeof import('better-sqlite3');
    const db = new SQLite(':memory:');
    try {
      expect(db.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
    } finally {
      db.close();
    }
  });
});
