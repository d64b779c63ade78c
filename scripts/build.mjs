// Bundles the server and CLI and the browser modules.
import { readFileSync, readdirSync } from 'node:fs';
import { build } from 'esbuild';

// Dependencies stay external (loaded from node_modules at run time), except two ES-module
// libraries made of hundreds of small files (typebox ~700, kysely ~280): bundled, a process
// holds one module instead of ~1,000, about 25 MB less resident memory (docs/decisions/092).
const BUNDLED = new Set(['typebox', 'kysely']);
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
  .filter((d) => !BUNDLED.has(d))
  .flatMap((d) => [d, `${d}/*`]);

const cliEntries = readdirSync('src/cli').filter((f) => f.endsWith('.ts')).map((f) => `src/cli/${f}`);
const clientEntries = readdirSync('src/client').filter((f) => /\.tsx?$/.test(f)).map((f) => `src/client/${f}`);

await Promise.all([
  build({
    entryPoints: ['src/server.ts', ...cliEntries],
    outdir: 'dist',
    outbase: 'src',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external,
    sourcemap: true,
    // Maps without the sources: stack traces still point at src/ lines, and the map that
    // --enable-source-maps parses at start stays small (with the bundled libraries' sources
    // inlined it cost ~25 MB of memory).
    sourcesContent: false,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'warning',
  }),
  clientEntries.length
    ? build({
        entryPoints: clientEntries,
        outdir: 'public/assets',
        bundle: true,
        platform: 'browser',
        format: 'esm',
        target: ['es2020', 'safari14'],
        minify: true,
        sourcemap: true,
        logLevel: 'warning',
      })
    : Promise.resolve(),
]);
