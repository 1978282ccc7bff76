// The web app's JavaScript budget: what the sign-in and home screens load, gzip, at most 100 KB (issue 29's target;
// the current figure and what bounds it: docs/web-app.md and docs/scaling.md). Reads the build in dist/web: the entry
// and the chunks index.html preloads, plus the app's start chunk, the routes' chunk, i18n, the English strings (each
// language is its own chunk, loaded at start) and the Home screen's chunk, and every chunk they import (followed
// transitively).
// Exits 1 over budget. `node scripts/web-budget.mjs [build directory]`.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import zlib from 'node:zlib';

const BUDGET_KB = 100;
const dir = process.argv[2] ?? 'dist/web';
const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
const seen = new Set();
const queue = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
// The app's start chunk, the routes (routed: the signed-in home needs them), i18n with the English strings, and the Home
// screen's: the entry loads them at once with import().
queue.push(
  ...fs
    .readdirSync(path.join(dir, 'assets'))
    .filter((f) => /^(start|routed|i18n|en|Home)-[\w-]+\.js$/.test(f))
    .map((f) => `assets/${f}`),
);
while (queue.length) {
  const file = queue.shift();
  if (seen.has(file)) continue;
  seen.add(file);
  const code = fs.readFileSync(path.join(dir, file), 'utf8');
  // Static imports only ("from './x.js'" and bare "import './x.js'"); dynamic import() chunks load later.
  for (const m of code.matchAll(/(?:from|import)\s*["']\.\/([\w.-]+\.js)["']/g)) queue.push(`assets/${m[1]}`);
}
let total = 0;
for (const f of seen) {
  const gz = zlib.gzipSync(fs.readFileSync(path.join(dir, f)), { level: 9 }).length;
  total += gz;
  process.stdout.write(`${(gz / 1024).toFixed(1).padStart(7)} KB  ${f}\n`);
}
const kb = total / 1024;
process.stdout.write(`${kb.toFixed(1).padStart(7)} KB  sign-in + home JavaScript, gzip (budget ${BUDGET_KB} KB)\n`);
if (kb > BUDGET_KB) {
  process.stderr.write(`over budget by ${(kb - BUDGET_KB).toFixed(1)} KB\n`);
  process.exit(1);
}
