// Bundles the server and CLI (dependencies stay external) and the browser modules.
import { readdirSync } from 'node:fs';
import { build } from 'esbuild';

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
    packages: 'external',
    sourcemap: true,
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
