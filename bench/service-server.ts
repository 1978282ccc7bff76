import { loadConfig } from '../src/config.js';
import { buildApp } from '../src/services.js';
import { createLogger } from '../src/lib/logger.js';
import { startStats } from './count-queries.js';

// The real service on PostgreSQL for benchmarks: sandbox simulators, quiet logs, high rate limits.
const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000' });
const app = await buildApp({ config, log: createLogger({ level: 'warn' }) });
// The same poll interval as src/main.ts, so job latencies are the service's own.
if (config.jobsEnabled) app.services.jobs.start(config.sandbox ? 1000 : 2000, config.jobsConcurrency);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`LISTENING ${address}`);
startStats();
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
