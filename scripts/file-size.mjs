// `npm run lint:size`: no source file over 400 lines in src/ or web/src, and no function in src/ over 80 lines
// (a use case is one short function in a file of its own, docs/architecture.md). Exits 1 naming what is longer.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import ts from 'typescript';

const MAX = 400;
const FUNCTION_MAX = 80;
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src', 'web/src'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|tsx|mts)$/.test(f) && !f.endsWith('.d.ts') && fs.existsSync(f));
const sizes = files.map((f) => [f, fs.readFileSync(f, 'utf8').split('\n').length - 1]);
const long = sizes.filter(([, n]) => n > MAX);
for (const [f, n] of long) console.error(`${f}: ${n} lines (at most ${MAX})`);

/** Functions (declarations, expressions, arrows, methods) of a server file longer than FUNCTION_MAX lines. */
function longFunctions(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const line = (pos) => source.getLineAndCharacterOfPosition(pos).line;
      const n = line(node.getEnd()) - line(node.getStart()) + 1;
      if (n > FUNCTION_MAX) found.push(`${file}:${line(node.getStart()) + 1}: a function of ${n} lines (at most ${FUNCTION_MAX})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
const longFns = files.filter((f) => f.startsWith('src/')).flatMap(longFunctions);
for (const line of longFns) console.error(line);
if (long.length || longFns.length) process.exit(1);
const largest = Math.max(...sizes.map(([, n]) => n));
console.log(
  `${files.length} source files, none over ${MAX} lines (the largest ${largest}); no function in src/ over ${FUNCTION_MAX} lines`,
);
