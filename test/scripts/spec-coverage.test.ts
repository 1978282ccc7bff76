import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

describe('npm run spec:coverage', () => {
  it('runs on a clone that has no ../shared beside it, from the spec copy kept in docs/spec', async () => {
    // A directory with no shared/ next to it: only what a clone has.
    const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-clone-'));
    for (const entry of ['scripts', 'src', 'docs', 'package.json', 'tsconfig.json'])
      fs.cpSync(path.join(root, entry), path.join(clone, entry), { recursive: true });
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/spec-coverage.ts', '--strict'], {
        cwd: clone,
        env: { ...process.env, SPEC_FILE: '' },
      });
      expect(stdout).toContain('spec: docs/spec/service-interface.md');
      expect(stdout).toMatch(/98 operations and 3 public endpoints in the spec; \d+ registered, 0 missing/);
    } finally {
      fs.rmSync(clone, { recursive: true, force: true });
    }
  });

  it('keeps the copy in docs/spec identical to the shared spec when that is present', () => {
    const shared = path.resolve(root, '../shared/spec/service-interface.md');
    if (!fs.existsSync(shared)) return;
    expect(fs.readFileSync(path.join(root, 'docs/spec/service-interface.md'), 'utf8')).toBe(fs.readFileSync(shared, 'utf8'));
  });
});
