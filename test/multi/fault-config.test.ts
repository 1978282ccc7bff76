import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { PRODUCTION } from '../helpers/production-env.js';

/** The crash hook (src/lib/faults.ts) is test-only: production refuses to start with FAULT_POINT set. */
const ROOT = path.join(import.meta.dirname, '..', '..');

describe('FAULT_POINT (test-only crash hook)', () => {
  it('production refuses it, naming the setting; the same production settings without it load', () => {
    expect(loadConfig(PRODUCTION).faultPoint).toBeUndefined();
    let err: unknown;
    try {
      loadConfig({ ...PRODUCTION, FAULT_POINT: 'wallet.transfer.afterCommit' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(
      'Refusing to start in production:\n  - FAULT_POINT is a test-only crash hook and must not be set in production',
    );
  });

  it('the server process itself exits with the configuration error code (78) before opening the database', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...PRODUCTION, FAULT_POINT: 'vtu.purchase.afterDebit' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(78);
    expect(r.stderr).toContain('FAULT_POINT is a test-only crash hook');
  });

  it('outside production only the named points are accepted', () => {
    expect(loadConfig({ NODE_ENV: 'test', FAULT_POINT: 'payments.credit.beforeCommit' }).faultPoint).toBe('payments.credit.beforeCommit');
    expect(() => loadConfig({ NODE_ENV: 'test', FAULT_POINT: 'payments.credit.typo' })).toThrow(/FAULT_POINT/);
  });

  it('an armed point kills its process with SIGKILL; an unarmed one is a no-op', () => {
    const script = `import { armFaultPoint, faultPoint } from './src/lib/faults.ts';
      armFaultPoint('wallet.transfer.beforeCommit'); faultPoint('wallet.transfer.afterCommit'); console.log('passed other point');
      faultPoint('wallet.transfer.beforeCommit'); console.log('survived');`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stdout).toContain('passed other point');
    expect(r.stdout).not.toContain('survived');
    expect(r.signal).toBe('SIGKILL');
  });
});
