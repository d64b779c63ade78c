// The code base's shape, checked by the code itself (issue 11): no import cycles over src/
// (type-only imports included), and route files never reach a repository (they get services
// from their feature's index.ts). Reads the sources only; no database, no app.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolve(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next candidate
    }
  }
  return null;
}

/**
 * The files a file imports: `import` (type-only too) and `export ... from` statements with a
 * relative specifier. Dynamic `import()` is left out: it loads on first use, which is the
 * way to break a load-time dependency on purpose.
 */
function importsOf(file: string): { spec: string; target: string | null }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: { spec: string; target: string | null }[] = [];
  for (const statement of source.statements) {
    const specifier =
      ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement.moduleSpecifier : undefined;
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
    out.push({ spec: specifier.text, target: resolve(file, specifier.text) });
  }
  return out;
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const rel = (f: string) => path.relative(SRC, f).split(path.sep).join('/');

/** Every cycle found by a depth-first search, each as the chain of files that closes it. */
function findCycles(): string[][] {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    state.set(file, 'visiting');
    stack.push(file);
    for (const { target } of graph.get(file) ?? []) {
      if (!target || !graph.has(target)) continue;
      if (state.get(target) === 'visiting') cycles.push([...stack.slice(stack.indexOf(target)), target].map(rel));
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const f of files) if (!state.has(f)) visit(f);
  return cycles;
}

describe('architecture', () => {
  it('reads the sources it checks', () => {
    expect(files.length).toBeGreaterThan(50);
    // every relative import resolves to a file, or the checks below would miss edges
    const unresolved = [...graph].flatMap(([f, imports]) => imports.filter((i) => !i.target).map((i) => `${rel(f)} -> ${i.spec}`));
    expect(unresolved).toEqual([]);
  });

  it('has no import cycles in src/, type-only imports included', () => {
    expect(findCycles().map((c) => c.join(' -> '))).toEqual([]);
  });

  it('finds a cycle when there is one (the search itself works)', () => {
    const saved = new Map(graph);
    const [a, b] = files;
    graph.set(a!, [...(graph.get(a!) ?? []), { spec: 'b', target: b! }]);
    graph.set(b!, [...(graph.get(b!) ?? []), { spec: 'a', target: a! }]);
    try {
      expect(findCycles().length).toBeGreaterThan(0);
    } finally {
      for (const [k, v] of saved) graph.set(k, v);
    }
  });

  it('no route file imports a repository (index.ts builds them and hands services to the routes)', () => {
    const offenders = [...graph]
      .filter(([f]) => /\.routes\.tsx?$/.test(f))
      .flatMap(([f, imports]) => imports.filter((i) => i.target && /\.repository\.ts$/.test(i.target)).map((i) => `${rel(f)} -> ${i.spec}`));
    expect(offenders).toEqual([]);
  });

  it('no route file reaches a repository through a service either (no `repo`, `…Repo` or `…Repository` name)', () => {
    const named = (name: string) => name === 'repo' || /Repo(sitory)?$/.test(name);
    const offenders: string[] = [];
    for (const file of files.filter((f) => /\.routes\.tsx?$/.test(f))) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      const visit = (node: ts.Node) => {
        if (ts.isIdentifier(node) && named(node.text)) offenders.push(`${rel(file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${node.text}`);
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(offenders).toEqual([]);
  });
});
