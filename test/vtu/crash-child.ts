/**
 * Child process of the crash matrix (test/vtu/crash.ts): builds the app on the given PostgreSQL database and starts
 * one purchase of `kind` with the JSON input given, for a buyer of the given KYC tier, which the simulator holds (4444:
 * delivered, answer held; 8888: held before anything is recorded). The test kills this process with SIGKILL
 * mid-flight.
 */
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/services.js';

const [databaseUrl, userId, kycTier, kind, input] = process.argv.slice(2);
const config = loadConfig({
  NODE_ENV: 'test',
  DATABASE_URL: databaseUrl,
  DATA_DIR: path.join(os.tmpdir(), `vtu-crash-${process.pid}`),
  LOG_LEVEL: 'warn',
  VTU_PROVIDER_TIMEOUT_MS: '30000',
  VTU_SANDBOX_HOLD_MS: '60000',
});
const app = await buildApp({ config, skipMigrations: true });
await app.ready();
process.stdout.write('READY\n');
await app.services.vtu.purchase({ id: userId, kycTier: Number(kycTier) }, kind, JSON.parse(input));
process.stdout.write('FINISHED\n');
await app.close();
