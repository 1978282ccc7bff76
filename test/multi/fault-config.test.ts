import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

/** The crash hook (src/lib/faults.ts) is test-only: production refuses to start with FAULT_POINT set. */
const ROOT = path.join(import.meta.dirname, '..', '..');
const key = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://127.0.0.1:1/never',
  PIN_PEPPER: 'p'.repeat(40),
  DATA_ENCRYPTION_KEY: 'd'.repeat(40),
  FILE_SIGNING_SECRET: 'f'.repeat(40),
  PROCESSOR_SECRET_KEY: 'sk_live_x',
  PROCESSOR_BASE_URL: 'https://api.processor.example',
  SMTP_URL: 'smtp://mail',
  PUBLIC_URL: 'https://api.example.com',
  AUTH_PRIVATE_KEY: key,
  RECEIPT_SIGNING_KEY: key,
  VAPID_PUBLIC_KEY: 'x',
  VAPID_PRIVATE_KEY: 'y',
  VAPID_SUBJECT: 'mailto:ops@example.com',
  IDENTITY_BASE_URL: 'https://identity.example',
  VTU_PROVIDER_A_URL: 'https://a.vtu.example',
  VTU_PROVIDER_A_KEY: 'ka',
  VTU_PROVIDER_B_URL: 'https://b.vtu.example',
  VTU_PROVIDER_B_KEY: 'kb',
  VTU_PROVIDER_C_URL: 'https://c.vtu.example',
  VTU_PROVIDER_C_KEY: 'kc',
  VTU_PROVIDER_D_URL: 'https://d.vtu.example',
  VTU_PROVIDER_D_KEY: 'kd',
};

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
    expect((err as Error).message).toBe('Refusing to start in production:\n  - FAULT_POINT is a test-only crash hook and must not be set in production');
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
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.stdout).toContain('passed other point');
    expect(r.stdout).not.toContain('survived');
    expect(r.signal).toBe('SIGKILL');
  });
});
