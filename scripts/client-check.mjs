// `npm run client:check`: the typed client package as a consumer gets it. Builds client/, packs it with `npm pack`,
// installs the tarball into an empty project and type-checks the README's example against it (the example is
// read from client/README.md, so the README cannot drift from the package).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve('.');
const client = path.join(root, 'client');
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] }).toString();
const tsc = (tscPath, cwd) => execFileSync(process.execPath, [tscPath, '-p', 'tsconfig.json'], { cwd, stdio: 'inherit' });

tsc(path.join(root, 'node_modules/typescript/bin/tsc'), client);
fs.copyFileSync(path.join(client, 'src/schema.d.ts'), path.join(client, 'dist/schema.d.ts'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'client-check-'));
const tarball = run('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--silent'], client).trim().split('\n').pop();
console.log(`packed ${tarball}`);

const readme = fs.readFileSync(path.join(client, 'README.md'), 'utf8');
const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
if (!example) throw new Error('client/README.md has no ```ts example');
fs.writeFileSync(path.join(work, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
fs.writeFileSync(path.join(work, 'example.ts'), `${example}\nexport {};\n`);
fs.writeFileSync(
  path.join(work, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      lib: ['ES2022', 'DOM'],
      types: [],
    },
    files: ['example.ts'],
  }),
);
const tsVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/typescript/package.json'), 'utf8')).version;
run('npm', ['install', '--silent', '--no-audit', '--no-fund', path.join(work, tarball), `typescript@${tsVersion}`], work);
tsc(path.join(work, 'node_modules/typescript/bin/tsc'), work);
console.log(`the README example type-checks against the packed @vtu-wallet/client (${path.join(work, tarball)})`);
fs.rmSync(work, { recursive: true, force: true });
