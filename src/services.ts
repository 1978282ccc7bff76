import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from './config.js';
import { configWarnings } from './config-production.js';
import type { ServiceName, Services } from './platform/services.js';
import { armFaultPoint } from './lib/faults.js';
import { openDatabase, type Database } from './db/client.js';
import { migrate } from './db/migrate.js';
import { openReadReplica } from './db/replica.js';
import { systemClock, type Clock } from './kernel/clock.js';
import { createLogger, type Logger } from './lib/logger.js';
import { createLedger } from './ledger/ledger.js';
import { JobQueue } from './jobs/queue.js';
import { registerPlatformJobs } from './jobs/index.js';
import { createWork, EventBus } from './platform/change.js';
import { systemResolver, type Resolver } from './lib/public-address.js';
import { countSmsSend } from './lib/metrics.js';
import { capturingMailer, capturingSms, smtpMailer, type Mailer, type SmsSender } from './providers/messaging.js';
import { createPushSender, loadVapidKeys, type PushSender } from './providers/push.js';
import { createHttpIdentityProvider } from './providers/identity.js';
import { createStorage } from './providers/storage.js';
import { createVtuProviders } from './providers/vtu/index.js';
import { VtuTransport } from './providers/vtu/transport.js';
import { createLoopbackTransport } from './providers/http-transport.js';
import { createSmsGateway, SMS_DEFAULT_BASE_URLS } from './providers/sms.js';
import { createPaystackStyleAdapter, createProcessorRegistry } from './providers/processor.js';
import { SANDBOX_LOOPBACK_NAMES } from './modules/notifications/service.js';
import { gatewaySms } from './modules/notifications/sms.js';
import { allModules, allOperations } from './modules/index.js';
import { serviceName } from './modules/vtu/api.js';
import type { LiveWorld, TestWorld } from './modules/developers/api.js';
import { moduleScope, type AnyModule } from './platform/module.js';
import { buildHttpApp } from './http/app.js';
import { IDEMPOTENCY_TTL_MS } from './http/idempotency.js';
import { createSimulatedIdentityProvider } from './sandbox/identity-simulator.js';
import { SMS_SIMULATOR_PATH } from './sandbox/sms-simulator.js';
import { registerSandboxRoutes } from './sandbox/routes.js';

export interface BuildOptions {
  config: Config;
  database?: Database;
  clock?: Clock;
  log?: Logger;
  overrides?: ServiceOverrides;
  /** Skip applying migrations (the caller did). */
  skipMigrations?: boolean;
  /** Test mode's world (issue 45): how it is opened; null when this app is the test world. */
  testWorld?: TestWorldOptions | null;
  /** Inside the test world, the live world that built it (its disabled test endpoints' e-mails). */
  liveWorld?: LiveWorld;
}

export interface TestWorldOptions {
  /** Its database (tests: a fresh one); default PGlite under DATA_DIR/test-mode, migrated at its first use. */
  database?: () => Promise<Database>;
  /** Run its job worker (npm start and production do; tests drain it). */
  jobs?: boolean;
}

export interface ServiceOverrides {
  mailer?: Mailer;
  sms?: SmsSender;
  push?: PushSender;
  /** DNS for push endpoints (tests control it). */
  resolver?: Resolver;
}

/** Builds the whole service: database, migrations, services, then the HTTP app serving them. Tests call this directly. */
export async function buildApp(opts: BuildOptions) {
  const { config } = opts;
  const refused = allModules.flatMap((m) => m.check?.(config) ?? []);
  if (refused.length) throw new ConfigError(`Invalid configuration:\n  ${refused.join('\n  ')}`);
  const clock = opts.clock ?? systemClock;
  const log = opts.log ?? createLogger({ level: config.logLevel });
  const database =
    opts.database ??
    (await openDatabase({
      url: config.databaseUrl,
      listenUrl: config.databaseListenUrl,
      dataDir: config.dataDir,
      poolSize: config.databasePoolSize,
      preparedStatements: config.databasePreparedStatements,
    }));
  if (!opts.skipMigrations) await migrate(database);
  // The test world is built on first use, after this world's services: it tells them of its disabled endpoints.
  const testWorld = opts.testWorld === null ? null : testWorldOf(opts, clock, log, () => services);
  const liveWorld = opts.liveWorld ?? null;
  const services = await createServices({ config, database, clock, log, testWorld, liveWorld }, opts.overrides);
  return buildHttpApp(services, {
    operations: allOperations,
    sandboxRoutes: config.sandbox ? registerSandboxRoutes : null,
    close: async () => {
      await services.jobs.stop();
      await services.authChanges.close();
      await services.growthSettingsChanges.close();
      await services.vtuLevelChanges.close();
      await services.replica.close();
      await testWorld?.close();
      if (!opts.database) await database.close();
    },
  });
}

const rolesByOperation = new Map(allOperations.flatMap((op) => (op.roles ? [[op.name, ['admin' as const, ...op.roles]] as const] : [])));
const operationRoles = (operation: string) => rolesByOperation.get(operation) ?? null;

/**
 * The composition root: the only place that knows every module and adapter. It builds the platform (database,
 * ledger, job queue, event bus) and the adapters configuration asks for (simulators in the sandbox, docs/style.md rule 12),
 * then each module from exactly what its entry file says it needs, in an order where every need is built first.
 */
export async function createServices(
  base: { config: Config; database: Database; clock: Clock; log: Logger; testWorld?: TestWorld | null; liveWorld?: LiveWorld | null },
  overrides: ServiceOverrides = {},
): Promise<Services> {
  // Allowed but weakening settings (OPERATOR_2FA=optional in production): said at every start; the console shows them too.
  for (const w of configWarnings(base.config)) base.log.warn({ warning: w.code }, w.message);
  const platform = createPlatform(base, overrides);
  const services = await composeModules(allModules, platform);
  // Each module's event subscriptions and jobs, as its entry file lists them, after the platform's own clean-ups.
  for (const m of allModules) for (const subscribe of m.subscribers ?? []) subscribe(moduleScope(m, services));
  registerPlatformJobs({ ...services, retentionHours: base.config.jobsRetentionHours }, IDEMPOTENCY_TTL_MS);
  for (const m of allModules) for (const register of m.jobs ?? []) register(moduleScope(m, services));
  return services;
}

function createPlatform(
  base: { config: Config; database: Database; clock: Clock; log: Logger; testWorld?: TestWorld | null; liveWorld?: LiveWorld | null },
  overrides: ServiceOverrides,
) {
  const { config, database, clock, log } = base;
  armFaultPoint(config.faultPoint);
  const db = database.db;
  const upstream = createLoopbackTransport(config.publicUrl);
  const smsGateway = config.sms.provider
    ? createSmsGateway(config.sms.provider, {
        ...config.sms,
        baseUrl:
          config.sms.baseUrl ??
          (config.sandbox ? `${config.publicUrl}${SMS_SIMULATOR_PATH}/${config.sms.provider}` : SMS_DEFAULT_BASE_URLS[config.sms.provider]),
        transport: upstream.send,
        timeoutMs: 10_000,
      })
    : null;
  const ledger = createLedger({ clock, batch: config.ledgerBatch, log });
  const jobs = new JobQueue(db, clock, log);
  const events = new EventBus();
  // Push endpoints: resolved and checked public when saved and again at delivery.
  const resolver = overrides.resolver ?? systemResolver;
  return {
    config,
    database,
    db,
    replica: openReadReplica({
      primary: database,
      url: config.databaseReadUrl,
      poolSize: config.databasePoolSize,
      maxLagMs: config.databaseReadMaxLagMs,
      onChange: (status) => log.warn(status, `lag-tolerant reads now go to the ${status.target}`),
    }),
    clock,
    log,
    testWorld: base.testWorld ?? null,
    liveWorld: base.liveWorld ?? null,
    ledger,
    jobs,
    events,
    work: createWork({ db, clock, ledger, jobs, events }),
    upstream,
    resolver,
    // The kinds' names in purchase notices: the VTU module's list, for the notifications' wording (which imports no VTU).
    serviceNames: serviceName,
    // Who may call an admin operation, from the registry's declarations (the console's alerts name the operation).
    operationRoles,
    mailer:
      overrides.mailer ??
      (config.mail.smtpUrl ? smtpMailer(config.mail.smtpUrl, config.mail.from) : capturingMailer(db, clock, config.mail.from)),
    smsGateway,
    // Development without a gateway captures messages in the database (production refuses to start without one).
    sms: overrides.sms ?? (smsGateway ? gatewaySms(db, clock, smsGateway, countSmsSend) : capturingSms(db, clock)),
    push:
      overrides.push ??
      createPushSender(loadVapidKeys(config), {
        policy: {
          resolver,
          allowedHosts: config.pushAllowedHosts,
          loopbackAllowed: config.sandbox ? (host) => SANDBOX_LOOPBACK_NAMES.has(host) : undefined,
        },
      }),
    identityLookups: config.sandbox ? createSimulatedIdentityProvider({ db, clock }) : createHttpIdentityProvider(config.identity),
    storage: createStorage(config),
    processors: createProcessorRegistry(
      [
        createPaystackStyleAdapter({
          id: config.processor.default,
          baseUrl: config.processor.baseUrl ?? `${config.publicUrl}/sandbox/processor/api`,
          secretKey: config.processor.secretKey,
          transport: upstream.send,
        }),
      ],
      config.processor.default,
    ),
    vtuProviders: createVtuProviders(config.vtu.providers, config.vtu.timeoutMs, new VtuTransport(upstream.send)),
  } satisfies Partial<Services>;
}

/**
 * Builds every module once all it needs exists, and adds what it provides to the container. A need nobody provides,
 * or modules that need each other, stop the start with the names involved.
 */
export async function composeModules(modules: readonly AnyModule[], platform: Partial<Services>): Promise<Services> {
  const container: Partial<Services> = { ...platform };
  const has = (name: ServiceName) => Object.hasOwn(container, name);
  const pending = [...modules];
  while (pending.length) {
    const next = pending.findIndex((m) => m.needs.every(has));
    if (next < 0) {
      const missing = pending.map((m) => `${m.name} needs ${m.needs.filter((n) => !has(n)).join(', ')}`);
      throw new Error(`modules cannot be composed: ${missing.join('; ')}`);
    }
    const [m] = pending.splice(next, 1);
    if (!m.create) continue;
    const deps = Object.fromEntries(m.needs.map((n) => [n, container[n]])) as Pick<Services, ServiceName>;
    const made: Partial<Services> = await m.create(deps);
    for (const name of m.provides) {
      if (!Object.hasOwn(made, name)) throw new Error(`module ${m.name} did not provide ${name}`);
      if (has(name)) throw new Error(`${name} is provided twice (module ${m.name})`);
      Object.assign(container, { [name]: made[name] });
    }
  }
  return container as Services;
}

/**
 * Test mode (issue 45, docs/decisions.md "Test mode is another world"): a second instance of the whole service, in
 * the sandbox configuration (every upstream a simulator, whatever this instance's configuration says), on a database
 * of its own, built on first use. The live app hands it every request made with a test key; it shares nothing with
 * the live instance but the clock, the log, the key brand and the webhooks' address rule (config.webhooksPrivate: a test
 * endpoint outside the sandbox is https on a public address, as a live one).
 */
function testWorldOf(opts: BuildOptions, clock: Clock, log: Logger, live: () => Services): TestWorld {
  const { config } = opts;
  let world: ReturnType<typeof buildApp> | null = null;
  let database: Database | null = null;
  const built = () =>
    (world ??= (async () => {
      database = opts.testWorld?.database ? await opts.testWorld.database() : null;
      const app = await buildApp({
        config: loadConfig(
          {
            SANDBOX: 'true',
            NODE_ENV: 'development',
            DATA_DIR: dataDir,
            PUBLIC_URL: config.publicUrl,
            API_KEY_BRAND: config.apiKeyBrand,
            LOG_LEVEL: config.logLevel,
            WEB_DIR: '',
          },
          { webhooksPrivate: config.webhooksPrivate },
        ),
        ...(database ? { database } : {}),
        clock,
        log: log.child({ world: 'test' }),
        overrides: opts.overrides,
        testWorld: null,
        liveWorld: { testEndpointDisabled: (n) => live().webhooks.testEndpointDisabled(n) },
      });
      await app.ready();
      if (opts.testWorld?.jobs) app.services.jobs.start(2000, 2, 1);
      return app;
    })());
  const dataDir = path.join(config.dataDir, 'test-mode');
  return {
    // Built here, or holding data from an earlier run (a test world given its database is only ever the built one).
    started: () => world !== null || (!opts.testWorld?.database && fs.existsSync(dataDir)),
    async forward(r) {
      const res = await (
        await built()
      ).inject({ method: r.method as 'GET', url: r.url, headers: r.headers, payload: r.body, remoteAddress: r.ip });
      return { status: res.statusCode, headers: res.headers, body: res.body };
    },
    developers: async () => (await built()).services.developers,
    webhooks: async () => (await built()).services.webhooks,
    async drain() {
      if (world) await (await world).services.jobs.drain();
    },
    async close() {
      if (!world) return;
      await (await world).close();
      await (database as Database | null)?.close();
    },
  };
}
