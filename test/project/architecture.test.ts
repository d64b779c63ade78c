// The code base's shape, checked by the code itself: no import cycles over src/
// (type-only imports included); no import from a higher layer of src/ (LAYERS below);
// route files never reach a repository nor the database handle (they get services from
// their feature's index.ts); services never build a repository (they receive it, decision
// 179). Reads the sources only; no database, no app.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolve(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ]) {
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
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const out: { spec: string; target: string | null }[] = [];
  for (const statement of source.statements) {
    const specifier =
      ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement.moduleSpecifier : undefined;
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
    out.push({ spec: specifier.text, target: resolve(file, specifier.text) });
  }
  return out;
}

function parse(file: string, text = readFileSync(file, 'utf8')): ts.SourceFile {
  return ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
}
const lineOf = (source: ts.SourceFile, node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;

/**
 * Where a file reaches the database handle: `x.db` (app.db, request.server.db, deps.db) or
 * `{ db }` taken out of something. Route files and services get services or repositories
 * instead; only a feature's wiring (index.ts, services.ts) hands `app.db` to constructors.
 */
function dbHandleUses(source: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'db')
      out.push(`${lineOf(source, node)} ${node.getText(source)}`);
    if (ts.isBindingElement(node) && (node.propertyName ?? node.name).getText(source) === 'db')
      out.push(`${lineOf(source, node)} { db }`);
    if (ts.isParameter(node) && ts.isIdentifier(node.name) && node.name.text === 'db')
      out.push(`${lineOf(source, node)} parameter db`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/**
 * Repository constructors a file imports as values (`createXRepository`, from the
 * repository module or any re-export of it). Type-only imports are fine: a service names
 * the repository type it receives.
 */
function repositoryConstructorImports(source: ts.SourceFile): string[] {
  const out: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
    const bindings = statement.importClause?.namedBindings;
    const spec = (statement.moduleSpecifier as ts.StringLiteral).text;
    if (bindings && ts.isNamespaceImport(bindings) && /\.repository(\.js)?$/.test(spec))
      out.push(`${lineOf(source, statement)} * as ${bindings.name.text} from ${spec}`);
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      const imported = (element.propertyName ?? element.name).text;
      if (!element.isTypeOnly && /^create\w*Repository$/.test(imported))
        out.push(`${lineOf(source, element)} ${imported} from ${spec}`);
    }
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

const routeFiles = files.filter((f) => /\.routes\.tsx?$/.test(f));

/**
 * The layers of src/, lowest first (docs/architecture.md, "Layers of src/"). A file imports
 * its own area and the areas of lower layers only: never a higher layer, nor another area of
 * its own layer. An area is a folder of src/ or a file at its root (`app.ts` is `app`).
 */
const LAYERS: readonly (readonly string[])[] = [
  ['lib'], // pure helpers and the form kit: node's modules only
  ['config', 'client'], // the settings; the browser modules (their own bundle)
  ['db'], // createDb, types, migrations, seeds, the CSV writers
  ['brand'], // the chain's name, contacts and look
  ['views'], // the layout, error page and the form kit's fields
  ['http'], // hooks, errors, caching, static files, forms and CSRF
  ['staff'], // the staff screens' kit and the staff contract (access.ts)
  ['platform'], // mail, storage, rate limits, envio, webhooks, metrics, backup, payments
  ['features'], // what owns tables and pages; a feature may import another
  ['app', 'cli'], // buildApp wires everything; the commands
  ['server'], // the process
];

const areaOf = (relPath: string) => relPath.split('/')[0]!.replace(/\.tsx?$/, '');
const layerOf = (relPath: string) => LAYERS.findIndex((areas) => areas.includes(areaOf(relPath)));

/** Why `from` may not import `to` (paths relative to src/), or null when it may. */
function layerViolation(from: string, to: string): string | null {
  const [a, b] = [areaOf(from), areaOf(to)];
  if (a === b) return null;
  const [la, lb] = [layerOf(from), layerOf(to)];
  if (lb < la) return null;
  return lb === la ? `${a} imports ${b}, of its own layer` : `${a} imports ${b}, a higher layer`;
}

/** The specifiers of `import('…')` calls and `import('…').T` types: lazy loads, which importsOf leaves out. */
function lazyImportsOf(source: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    const arg =
      ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
        ? node.arguments[0]
        : ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)
          ? node.argument.literal
          : undefined;
    if (arg && ts.isStringLiteral(arg) && arg.text.startsWith('.')) out.push(arg.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/**
 * Every src/ file a file depends on, for the layers: its imports and re-exports, and its lazy
 * loads too, since a lazy load of a higher layer is a dependency on it all the same.
 */
function dependenciesOf(file: string): { spec: string; target: string | null }[] {
  const lazy = lazyImportsOf(parse(file)).map((spec) => ({ spec, target: resolve(file, spec) }));
  return [...(graph.get(file) ?? []), ...lazy];
}

describe('architecture', () => {
  it('reads the sources it checks', () => {
    expect(files.length).toBeGreaterThan(50);
    // every relative import resolves to a file, or the checks below would miss edges
    const unresolved = [...graph].flatMap(([f, imports]) =>
      imports.filter((i) => !i.target).map((i) => `${rel(f)} -> ${i.spec}`),
    );
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

  it('every file of src/ is in a layer', () => {
    expect(files.map(rel).filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  it('no file imports from a higher layer of src/ (a lower layer never reaches a feature)', () => {
    const offenders = files.flatMap((f) =>
      dependenciesOf(f).flatMap(({ spec, target }) => {
        const why = target ? layerViolation(rel(f), rel(target)) : null;
        return why ? [`${rel(f)} -> ${spec} (${why})`] : [];
      }),
    );
    expect(offenders).toEqual([]);
  });

  it('the layer check finds what it looks for (the check itself works)', () => {
    expect(layerViolation('staff/http.ts', 'features/identity/access.ts')).toBe(
      'staff imports features, a higher layer',
    );
    expect(layerViolation('db/seeds/volume.ts', 'features/privacy/retention.ts')).not.toBeNull();
    expect(layerViolation('brand/routes.ts', 'platform/storage/images.ts')).not.toBeNull();
    expect(layerViolation('config.ts', 'client/search.ts')).toBe('config imports client, of its own layer');
    expect(layerViolation('features/feedback/home.routes.ts', 'staff/access.ts')).toBeNull();
    expect(layerViolation('features/catalog/seo.routes.ts', 'features/privacy/policy.view.tsx')).toBeNull();
    expect(layerViolation('server.ts', 'app.ts')).toBeNull();
    const lazy = parse('x.ts', "const m = await import('../features/a');\nlet t: import('./b').T;\nimport('node:fs');");
    expect(lazyImportsOf(lazy)).toEqual(['../features/a', './b']);
  });

  it('no route file imports a repository (index.ts builds them and hands services to the routes)', () => {
    const offenders = [...graph]
      .filter(([f]) => /\.routes\.tsx?$/.test(f))
      .flatMap(([f, imports]) =>
        imports.filter((i) => i.target && /\.repository\.ts$/.test(i.target)).map((i) => `${rel(f)} -> ${i.spec}`),
      );
    expect(offenders).toEqual([]);
  });

  it(`no route file touches the database handle (app.db, request.server.db, { db }): index.ts hands it \
services`, () => {
    const offenders = routeFiles.flatMap((f) => dbHandleUses(parse(f)).map((use) => `${rel(f)}:${use}`));
    expect(offenders).toEqual([]);
  });

  it(`no service builds a repository: services (and routes and views) receive them, index.ts/services.ts build \
them`, () => {
    const offenders = files
      .filter((f) => /\.(service|routes|view)\.tsx?$/.test(f))
      .flatMap((f) => repositoryConstructorImports(parse(f)).map((use) => `${rel(f)}:${use}`));
    expect(offenders).toEqual([]);
  });

  it(`no service holds the database handle: it opens transactions through its repositories \
(\`repo.transaction\`)`, () => {
    const offenders = files
      .filter((f) => /\.service\.ts$/.test(f))
      .flatMap((f) => dbHandleUses(parse(f)).map((use) => `${rel(f)}:${use}`));
    expect(offenders).toEqual([]);
  });

  it('the wiring checks find what they look for (and leave type-only imports alone)', () => {
    const route = parse(
      'x.routes.ts',
      [
        'export function r(app, request) {',
        '  storeLead({ db: app.db });',
        '  outboxSummary(request.server.db);',
        '  const { db } = app;',
        '}',
      ].join('\n'),
    );
    expect(dbHandleUses(route)).toEqual(['2 app.db', '3 request.server.db', '4 { db }']);
    const service = parse(
      'x.service.ts',
      [
        "import { createLeadsRepository, type LeadsRepository } from './leads.repository';",
        "import type { createPhotosRepository } from './photos.repository';",
        "import { type createCtaRepository, enqueueMail } from './cta.repository';",
        "import { createEnvioRepository as envios } from '../envio/index';",
        "import * as repos from './booking.repository';",
        'export function createXService(db) { return createLeadsRepository(db); }',
      ].join('\n'),
    );
    expect(repositoryConstructorImports(service)).toEqual([
      '1 createLeadsRepository from ./leads.repository',
      '4 createEnvioRepository from ../envio/index',
      '5 * as repos from ./booking.repository',
    ]);
    expect(dbHandleUses(service)).toEqual(['6 parameter db']);
  });

  it('no route file reaches a repository through a service either (no `repo`, `…Repo` or `…Repository` name)', () => {
    const named = (name: string) => name === 'repo' || /Repo(sitory)?$/.test(name);
    const offenders: string[] = [];
    for (const file of files.filter((f) => /\.routes\.tsx?$/.test(f))) {
      const source = ts.createSourceFile(
        file,
        readFileSync(file, 'utf8'),
        ts.ScriptTarget.Latest,
        true,
        ts.ScriptKind.TS,
      );
      const visit = (node: ts.Node) => {
        if (ts.isIdentifier(node) && named(node.text))
          offenders.push(`${rel(file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${node.text}`);
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(offenders).toEqual([]);
  });
});
