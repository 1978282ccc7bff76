// `npm run lint:size`: no source file over 400 lines in src/ or web/src (the structure's standing rule). Exits 1
// naming the files that are longer.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const MAX = 400;
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src', 'web/src'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|tsx|mts)$/.test(f) && !f.endsWith('.d.ts') && fs.existsSync(f));
const long = files.map((f) => [f, fs.readFileSync(f, 'utf8').split('\n').length - 1]).filter(([, n]) => n > MAX);
for (const [f, n] of long) console.error(`${f}: ${n} lines (at most ${MAX})`);
if (long.length) process.exit(1);
console.log(`${files.length} source files, none over ${MAX} lines`);
