/**
 * One real server process for the multi-instance, crash-matrix and bank-invariant runs: the app built with
 * buildApp on DATABASE_URL (PostgreSQL) and REDIS_URL from the parent's environment, listening on a free
 * loopback port. PUBLIC_URL is this instance itself, so its processor simulator delivers webhooks to it and its
 * VTU adapters reach its own provider simulators over real HTTP (the simulators' state is in the shared
 * database). Prints `LISTENING <url>` once ready. FAULT_POINT, when set, arms the crash hook (src/lib/faults.ts).
 */
import net from 'node:net';
import { loadConfig } from '../../src/config.js';
import { checkCompiledSql } from '../../src/db/client.js';
import { buildApp } from '../../src/services.js';
import { createLogger } from '../../src/lib/logger.js';

const port = await new Promise<number>((resolve, reject) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const p = (s.address() as net.AddressInfo).port;
    s.close(() => resolve(p));
  });
  s.on('error', reject);
});
checkCompiledSql(true);
const level = (process.env.LOG_LEVEL ?? 'warn') as 'warn';
const config = loadConfig({
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  LOG_LEVEL: level,
});
const app = await buildApp({ config, log: createLogger({ level }) });
if (config.jobsEnabled) app.services.jobs.start(Number(process.env.JOBS_POLL_MS ?? 200));
const address = await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${address}\n`);
const stop = () => {
  const timer = setTimeout(() => process.exit(1), 10_000);
  app.close().finally(() => {
    clearTimeout(timer);
    process.exit(0);
  });
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
