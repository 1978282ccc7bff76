import { loadConfig, ConfigError, SANDBOX_OPERATOR_EMAIL } from './config.js';
import { sandboxBanner } from './lib/banner.js';
import { createLogger } from './lib/logger.js';

// start: config -> db -> migrations -> app -> workers (docs/design.md §3)
async function main() {
  let config;
  try {
    // `npm start` and `npm run dev` pass --sandbox: the sandbox is never on by accident.
    const env = process.argv.includes('--sandbox') && process.env.SANDBOX === undefined ? { ...process.env, SANDBOX: 'true' } : process.env;
    config = loadConfig(env);
  } catch (err) {
    refuseOnConfigError(err);
  }
  const log = createLogger({ level: config.logLevel, format: config.logFormat });
  // The service's code is loaded once the configuration is accepted: a refused one stops the start at once.
  const { buildApp } = await import('./services.js');
  // A module refuses a setting it alone understands (VTU_ROUTING) when the app is built, before anything is opened.
  const app = await buildApp({ config, log, testWorld: { jobs: config.jobsEnabled } }).catch(refuseOnConfigError);
  if (config.jobsEnabled) app.services.jobs.start(config.sandbox ? 1000 : 2000, config.jobsConcurrency, config.jobsBackgroundLanes);
  await app.listen({ port: config.port, host: config.host });
  log.info({ sandbox: config.sandbox, database: config.databaseUrl ? 'postgresql' : 'pglite', url: config.publicUrl }, 'service ready');
  // `npm start` (LOG_FORMAT=pretty, the sandbox only): where to go next. JSON logs stay JSON lines only.
  if (config.logFormat === 'pretty') process.stdout.write(sandboxBanner({ url: config.publicUrl, operatorEmail: SANDBOX_OPERATOR_EMAIL }));

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: draining requests and jobs');
    const timer = setTimeout(() => process.exit(1), 15_000);
    try {
      await app.close();
    } finally {
      clearTimeout(timer);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** A configuration the service refuses stops it with the setting named and exit code 78 (EX_CONFIG). */
function refuseOnConfigError(err: unknown): never {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(78);
  }
  throw err;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
