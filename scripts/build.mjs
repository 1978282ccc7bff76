// `npm run build`: compiles TypeScript with tsc, copies what the compiled code reads at run time (the SQL
// migrations) and builds the web app (BUILD_WEB=0 skips it). BUILD_BENCH=1 also compiles the benchmark servers (bench/) into dist-bench/ for `npm run bench`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import zlib from 'node:zlib';

const bench = process.env.BUILD_BENCH === '1';
const project = bench ? 'tsconfig.bench.json' : 'tsconfig.build.json';
const out = bench ? 'dist-bench/src' : 'dist';
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], { stdio: 'inherit' });
// The migrations: src/db/migrations and each service kind's own (src/modules/vtu/kinds/<kind>/migrations).
const kinds = 'modules/vtu/kinds';
const migrationDirs = [
  'db/migrations',
  ...fs
    .readdirSync(path.join('src', kinds))
    .map((k) => `${kinds}/${k}/migrations`)
    .filter((d) => fs.existsSync(path.join('src', d))),
];
for (const dir of migrationDirs) {
  const to = path.join(out, dir);
  fs.rmSync(to, { recursive: true, force: true });
  fs.mkdirSync(to, { recursive: true });
  for (const f of fs.readdirSync(path.join('src', dir))) fs.copyFileSync(path.join('src', dir, f), path.join(to, f));
}

// The customer web app: Vite builds web/ into dist/web, which the service serves at /.
if (!bench && process.env.BUILD_WEB !== '0') {
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.mts', '--logLevel', 'warn'], {
    stdio: 'inherit',
  });
  // Each text file's brotli (quality 11) and gzip forms next to it, so the service does not compress them at every
  // start (about 15 s of CPU on a 2-core machine and 14 MB of RSS the compressor leaves behind; docs/scaling.md, "Memory").
  const compress = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) compress(full);
      else if (/\.(html|js|css|json|webmanifest|svg|txt)$/.test(entry.name) && fs.statSync(full).size > 512) {
        const body = fs.readFileSync(full);
        fs.writeFileSync(`${full}.br`, zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
        fs.writeFileSync(`${full}.gz`, zlib.gzipSync(body, { level: 9 }));
      }
    }
  };
  compress('dist/web');
}

// `npm start` (scripts/start.mjs) skips the build while this stamp is newer than every source.
if (!bench) fs.writeFileSync(path.join(out, '.build-stamp'), `${new Date().toISOString()}\n`);
