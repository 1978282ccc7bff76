// `npm start`: the API and the web app in sandbox mode. Builds first when the build is missing or older than any
// source (src/, web/, client/src/, the lockfile, the build's own configuration); otherwise starts at once.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const STAMP = 'dist/.build-stamp';
const SOURCES = ['src', 'web', 'client/src', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs'];

/** The newest modification time under `p` (node_modules and build output excluded). */
function newest(p) {
  let stat;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    max = Math.max(max, newest(path.join(p, entry)));
  }
  return max;
}

const built = fs.existsSync(STAMP) && fs.existsSync('dist/main.js') ? fs.statSync(STAMP).mtimeMs : 0;
if (!built || SOURCES.some((s) => newest(s) > built)) {
  console.log(
    built ? 'Sources changed since the last build: building…' : 'First start: building the service and the web app (about a minute)…',
  );
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
// --max-semi-space-size=16: Node 20's young generation; Node 24's 64 MB cost ~120 MB of RSS. --heap-growing-percent=30:
// the next full GC when the old generation is 30 % over what the last one kept, not up to 4x. MALLOC_ARENA_MAX=2: two
// malloc arenas instead of glibc's 8 per core (docs/scaling.md, "Memory").
const child = spawn(
  process.execPath,
  ['--max-semi-space-size=16', '--heap-growing-percent=30', 'dist/main.js', '--sandbox', ...process.argv.slice(2)],
  // LOG_FORMAT=pretty: one line of text a log line and, once it listens, the sandbox's banner (LOG_FORMAT=json for pino's).
  { stdio: 'inherit', env: { MALLOC_ARENA_MAX: '2', LOG_FORMAT: 'pretty', ...process.env } },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
