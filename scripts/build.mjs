// Bundles the server and CLI and the browser modules.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

// Dependencies stay external (loaded from node_modules at run time), except two ES-module
// libraries made of hundreds of small files (typebox ~700, kysely ~280): bundled, a process
// holds one module instead of ~1,000, about 25 MB less resident memory (docs/decisions/092).
const BUNDLED = new Set(['typebox', 'kysely']);
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
  .filter((d) => !BUNDLED.has(d))
  .flatMap((d) => [d, `${d}/*`]);

const cliEntries = readdirSync('src/cli')
  .filter((f) => f.endsWith('.ts'))
  .map((f) => `src/cli/${f}`);
const clientEntries = readdirSync('src/client')
  .filter((f) => /\.tsx?$/.test(f))
  .map((f) => `src/client/${f}`);

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
    // The map is written for `node --enable-source-maps` when debugging; `npm start` does not
    // parse it (Node decodes it whole at start: ~22 MB of heap, docs/decisions/165).
    sourcemap: true,
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

// esbuild escapes non-ASCII characters in strings but keeps them in comments and regular
// expressions; one such character makes V8 hold the whole 1.5 MB bundle as a two-byte string
// (3 MB). Escaped, the source stays one byte per character (docs/decisions/165). \uXXXX means
// the same character in a comment, a string or a regular expression.
for (const file of ['dist/server.js', ...cliEntries.map((f) => f.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js'))]) {
  const code = readFileSync(file, 'utf8');
  const ascii = code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== code) writeFileSync(file, ascii);
}
