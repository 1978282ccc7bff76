import net from 'node:net';
import { loadConfig } from '../src/config.js';
import { buildApp } from '../src/services.js';
import { createLogger } from '../src/lib/logger.js';
import { startStats } from './count-queries.js';

// The real service on PostgreSQL with its VTU simulators reached over real loopback HTTP: the port is chosen
// first so PUBLIC_URL (the simulators' base URL) is known before the app is built.
const port = await new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const p = (s.address() as net.AddressInfo).port;
    s.close(() => resolve(p));
  });
});
const config = loadConfig({
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '100000000',
});
const app = await buildApp({ config, log: createLogger({ level: 'warn' }) });
if (config.jobsEnabled) app.services.jobs.start(500, config.jobsConcurrency);
const address = await app.listen({ port, host: '127.0.0.1' });
console.log(`LISTENING ${address}`);
startStats();
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
