// No source line wider than 120 columns: Biome formats code to that width but cannot break
// a long string or comment, so this check (run by `npm run lint`) lists what is left.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 120;
const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
  encoding: 'utf8',
})
  .split('\0')
  .filter((f) => /\.(ts|tsx|mjs|js|css)$/.test(f));

const wide = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // deleted in the working tree, still in the index
  }
  text.split('\n').forEach((line, i) => {
    // Columns as a reader counts them: code points, not UTF-16 units.
    const width = [...line].length;
    if (width > MAX) wide.push(`${file}:${i + 1}: ${width} columns`);
  });
}

if (wide.length) {
  console.error(`${wide.length} line(s) wider than ${MAX} columns:\n${wide.join('\n')}`);
  process.exit(1);
}
