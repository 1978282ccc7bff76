import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { canonicalJson } from '../lib/canonical-json.js';
import { drainUnreadBodies } from './body-drain.js';
import { createMetrics } from './metrics.js';
import { MAX_JSON_DEPTH, jsonDepthExceeds } from '../lib/json-depth.js';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import cors from '@fastify/cors';
import { Redis } from 'ioredis';
import { z } from 'zod';
import client from 'prom-client';
import { sql, type SQL } from 'drizzle-orm';
import type { Config } from '../config.js';
import { isDatabaseUnavailable, one, openDatabase, type Database, type Db } from '../db/client.js';
import { migrate, pendingMigrations } from '../db/migrate.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { createLogger, type Logger } from '../lib/logger.js';
import { sha256 } from '../lib/crypto.js';
import { ulid } from '../lib/ids.js';
import { createServices, type ServiceOverrides, type Services } from '../services.js';
import { allOperations } from '../modules/index.js';
import { AppError, type ErrorIssue } from './errors.js';
import { securityHeaders } from './security-headers.js';
import { authOf, serverFnPath, versionedPath, type AnyOperation, type AuthUser, type OpContext, type RateClass } from './registry.js';
import { withIdempotency } from './idempotency.js';
import { buildOpenApi } from './openapi.js';
import { registerWebApp } from './web-app.js';
import { clearRefreshCookie, moveRefreshTokenToCookie, refreshTokenFromCookie, wantsCookieTransport } from './session-cookie.js';
import { registerSandboxRoutes } from '../sandbox/routes.js';
import { registerPublicRoutes } from './public-routes.js';
import { registerJobs } from '../jobs/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    authUser: AuthUser | null;
  }
  interface FastifyInstance {
    services: Services;
  }
  interface FastifyContextConfig {
    operation?: string;
  }
}

export interface BuildOptions {
  config: Config;
  database?: Database;
  clock?: Clock;
  log?: Logger;
  overrides?: ServiceOverrides;
  /** Skip applying migrations (the caller did). */
  skipMigrations?: boolean;
}

const RATE_CLASSES: Record<RateClass, (config: Config) => number> = {
  default: (c) => c.rateLimitPerMinute,
  money: (c) => Math.max(1, Math.floor(c.rateLimitPerMinute / 2)),
  auth: () => 20,
  strict: () => 10,
};

export function zodIssues(err: z.ZodError): ErrorIssue[] {
  return err.issues.map((i) => ({ path: i.path.map(String).join('.') || '(body)', message: i.message }));
}

export function validationError(err: z.ZodError): AppError {
  const issues = zodIssues(err);
  const first = issues[0];
  return new AppError('VALIDATION_FAILED', first ? `${first.path}: ${first.message}` : 'Input is not valid', { issues });
}

function isLoopback(ip: string): boolean {
  return ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1' || ip.startsWith('127.');
}

/** Builds the whole service: database, migrations, services, routes. Tests call this directly. */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const clock = opts.clock ?? systemClock;
  const log = opts.log ?? createLogger({ level: config.logLevel });
  const database = opts.database ?? (await openDatabase({ url: config.databaseUrl, listenUrl: config.databaseListenUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize, preparedStatements: config.databasePreparedStatements }));
  if (!opts.skipMigrations) await migrate(database);
  const services = await createServices({ config, database, clock, log }, opts.overrides);

  const app = Fastify({
    loggerInstance: log as unknown as FastifyBaseLogger,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    // Issue #22: request ids are always ours; a client's own id is kept apart (clientRequestId) when short and plain.
    genReqId: () => `req_${ulid()}`,
    requestIdHeader: false,
    ajv: { customOptions: { removeAdditional: false } },
  });
  app.decorate('services', services);
  app.decorateRequest('authUser', null);
  drainUnreadBodies(app);

  const { registry, latency } = createMetrics({ db: services.db, clock, stuckAfterMs: config.vtu.stuckAfterMs });

  // Security headers (helmet's, worked out once: the interactive docs at /docs need inline scripts and styles, so
  // there is no content security policy and nothing varies per request) and the request id, in one hook.
  const security = securityHeaders({ contentSecurityPolicy: false });
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(security.set);
    for (const name of security.remove) reply.removeHeader(name);
    reply.header('x-request-id', req.id);
    const clientId = req.headers['x-request-id'];
    if (typeof clientId === 'string' && /^[A-Za-z0-9._:-]{1,64}$/.test(clientId)) {
      req.log = req.log.child({ clientRequestId: clientId });
      reply.header('x-client-request-id', clientId);
    }
    done();
  });
  // Issue #22: JSON nested deeper than MAX_JSON_DEPTH is refused before anything walks it recursively (the
  // idempotency fingerprint, zod, the webhook's parse): 400, never a stack overflow.
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.body !== null && typeof req.body === 'object' && jsonDepthExceeds(req.body, MAX_JSON_DEPTH)) {
      const message = `JSON is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;
      done(new AppError('VALIDATION_FAILED', `(body): ${message}`, { issues: [{ path: '(body)', message }] }));
      return;
    }
    done();
  });
  // One labelled child per (operation, status), so an observation does not hash its labels every time.
  const observers = new Map<string, client.Histogram.Internal<'operation' | 'status'>>();
  app.addHook('onResponse', (req, reply, done) => {
    const operation = req.routeOptions.config?.operation ?? req.routeOptions.url ?? 'unknown';
    const key = `${reply.statusCode} ${operation}`;
    let observer = observers.get(key);
    if (!observer) observers.set(key, (observer = latency.labels({ operation, status: String(reply.statusCode) })));
    observer.observe(reply.elapsedTime / 1000);
    done();
  });

  app.setErrorHandler((err: any, req, reply) => {
    let appErr: AppError;
    if (err instanceof AppError) appErr = err;
    else if (err instanceof z.ZodError) appErr = validationError(err);
    else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413)
      appErr = new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415)
      appErr = new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
    else if (err.statusCode === 429) appErr = new AppError('RATE_LIMITED', 'Too many requests; slow down and retry', { retryAfter: Number(reply.getHeader('retry-after')) || 60 });
    else if (isDatabaseUnavailable(err)) {
      // Capacity or an outage, not a bug: the failing statement never reached the database (earlier statements of
      // the request may have; money requests are retried safely under their Idempotency-Key).
      req.log.warn({ err, operation: req.routeOptions.config?.operation }, 'database unavailable');
      appErr = new AppError('SERVICE_UNAVAILABLE', 'The service is busy; retry shortly', { retryAfter: 5 });
    } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500)
      appErr = new AppError('BAD_REQUEST', err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError ? 'Body is not valid JSON' : 'Request is not valid');
    else {
      const errorId = `err_${ulid()}`;
      req.log.error({ err, errorId, operation: req.routeOptions.config?.operation }, 'unhandled error');
      return reply.status(500).send({ ok: false, error: { code: 'INTERNAL', message: 'Something went wrong on our side', errorId } });
    }
    if (appErr.retryAfter) reply.header('retry-after', String(Math.ceil(appErr.retryAfter)));
    return reply.status(appErr.status).send(errorBody(appErr));
  });
  app.setNotFoundHandler((req, reply) => reply.status(404).send({ ok: false, error: { code: 'NOT_FOUND', message: `No route ${req.method} ${req.url.split('?')[0]}` } }));

  await app.register(cors, { origin: config.corsOrigins.length ? config.corsOrigins : false });

  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false }) : null;
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler',
    enableDraftSpec: true,
    ...(redis ? { redis, nameSpace: 'vtu-rl:' } : {}),
    keyGenerator: rateLimitKey,
    // Per-IP limits exempt loopback clients in the sandbox (DESIGN §8); per-account limits still apply.
    allowList: (req) => config.sandbox && !req.authUser && isLoopback(req.ip),
    errorResponseBuilder: (_req, ctx) => {
      const e = new AppError('RATE_LIMITED', `Too many requests; retry in ${Math.ceil(ctx.ttl / 1000)} seconds`);
      return Object.assign(new Error(e.message), { statusCode: 429, appError: e });
    },
  });
  app.addHook('onClose', async () => {
    if (redis) redis.disconnect();
  });

  const openapi = buildOpenApi(allOperations, config);
  await app.register(fastifySwagger, { mode: 'static', specification: { document: openapi as any } });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
  app.get('/api/openapi.json', async () => openapi);

  for (const op of allOperations) registerOperation(app, op, services, config);

  app.get('/healthz', async () => ({ ok: true }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await database.db.execute(sql`SELECT 1`);
      const pending = await pendingMigrations(database);
      if (pending.length) return reply.status(503).send({ ok: false, error: { code: 'SERVICE_UNAVAILABLE', message: `Migrations pending: ${pending.join(', ')}` } });
      return { ok: true };
    } catch {
      return reply.status(503).send({ ok: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'Database is not reachable' } });
    }
  });
  // Issue #22: the metrics behind a bearer token (required in production; unset elsewhere leaves them open).
  const metricsAuth = config.metricsToken ? Buffer.from(`Bearer ${config.metricsToken}`) : null;
  app.get('/metrics', async (req, reply) => {
    if (metricsAuth) {
      const given = Buffer.from(req.headers.authorization ?? '');
      if (given.length !== metricsAuth.length || !timingSafeEqual(given, metricsAuth)) {
        return reply.status(401).header('www-authenticate', 'Bearer').send({ ok: false, error: { code: 'UNAUTHENTICATED', message: 'The metrics need the bearer token METRICS_TOKEN' } });
      }
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  app.get('/.well-known/jwks.json', async () => services.tokens.jwks());

  await registerPublicRoutes(app, services);
  if (registerWebApp(app, config.webDir)) app.log.debug({ dir: config.webDir }, 'serving the web app');
  if (config.sandbox) await registerSandboxRoutes(app, services);
  registerJobs(services);

  app.addHook('onClose', async () => {
    await services.jobs.stop();
    await services.authChanges.close();
    await services.growthSettingsChanges.close();
    if (!opts.database) await database.close();
  });
  return app;
}

function errorBody(e: AppError) {
  return { ok: false as const, error: { code: e.code, message: e.message, ...(e.issues ? { issues: e.issues } : {}) } };
}

/**
 * Path of the first string (value or key) holding U+0000, or null. PostgreSQL text cannot store NUL, so such
 * input would otherwise reach the database and fail there as a 500 (issue 10 fuzzing); no field needs it.
 */
function nulPath(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '(body)' : null;
  if (!value || typeof value !== 'object' || depth > 256) return null;
  for (const [k, v] of Object.entries(value)) {
    const p = path ? `${path}.${k}` : k;
    if (k.includes('\u0000')) return p;
    const found = nulPath(v, p, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** Reads the `{data}` envelope of a POST (DESIGN §4); a missing body means no inputs. */
function unwrapEnvelope(body: unknown): unknown {
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new AppError('VALIDATION_FAILED', 'Body must be a JSON object {"data": {...}}', { issues: [{ path: '(body)', message: 'expected an object' }] });
  const keys = Object.keys(body);
  const extra = keys.filter((k) => k !== 'data');
  if (extra.length) throw new AppError('VALIDATION_FAILED', `Unknown top-level field(s): ${extra.join(', ')}; send inputs inside "data"`, { issues: extra.map((k) => ({ path: k, message: 'unknown field' })) });
  const data = (body as { data?: unknown }).data;
  if (data === undefined || data === null) return {};
  if (typeof data !== 'object' || Array.isArray(data)) throw new AppError('VALIDATION_FAILED', '"data" must be an object', { issues: [{ path: 'data', message: 'expected an object' }] });
  return data;
}

function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : null;
}

/** Scalar subqueries as the columns of one SELECT: (q1) AS k1, (q2) AS k2, ... */
function readColumns(reads: Record<string, SQL>): SQL {
  return sql.join(
    Object.entries(reads).map(([k, q]) => {
      if (!/^[a-z_]+$/.test(k)) throw new Error(`readAhead key ${k} must be lower-case letters and underscores`);
      return sql`(${q}) AS ${sql.raw(k)}`;
    }),
    sql`, `,
  );
}

/** Runs scalar subqueries together (one round trip). */
async function readTogether(db: Db, reads: Record<string, SQL>): Promise<Record<string, unknown>> {
  return (await one<Record<string, unknown>>(db, sql`SELECT ${readColumns(reads)}`)) ?? {};
}

/** Whose budget a request spends: the signed-in account's, else the client address's. */
function rateLimitKey(req: FastifyRequest): string {
  return req.authUser ? `u:${req.authUser.id}` : `ip:${req.ip}`;
}

function registerOperation(app: FastifyInstance, op: AnyOperation, services: Services, config: Config) {
  const auth = authOf(op);
  const strictInput = op.input.strict();
  const paths = [serverFnPath(op), ...(op.versioned ? [versionedPath(op)] : [])];
  const perMinute = RATE_CLASSES[op.rateLimit ?? 'default'](config);

  const authenticate = async (req: FastifyRequest) => {
    const token = bearerToken(req);
    if (!token) {
      if (auth === 'public') return;
      throw new AppError('UNAUTHENTICATED', 'Authorization: Bearer <access token> is required');
    }
    try {
      req.authUser = await services.identity.authenticate(token);
    } catch (err) {
      if (auth === 'public') return; // a stale token on a public operation is ignored
      throw err;
    }
    if (auth === 'admin' && req.authUser.role !== 'admin') throw new AppError('FORBIDDEN', 'Operator role required');
  };

  type Prepared = { input: Parameters<typeof op.handler>[0]; ctx: OpContext; reads: Record<string, SQL> };

  /** Validates the input and builds the context and the read-ahead; throws AppError on bad input. */
  const prepare = (req: FastifyRequest, reply: FastifyReply): Prepared => {
    let raw = op.method === 'GET' ? (req.query ?? {}) : unwrapEnvelope(req.body);
    // Cookie transport (issue #19): the web app's refresh token comes from its HttpOnly cookie, not the body.
    if (op.refreshTokenFromCookie && wantsCookieTransport(req) && (raw as { refreshToken?: unknown }).refreshToken === undefined) {
      const fromCookie = refreshTokenFromCookie(req);
      if (!fromCookie) throw new AppError('UNAUTHENTICATED', 'No session cookie; sign in again');
      raw = { ...(raw as object), refreshToken: fromCookie };
    }
    const nul = nulPath(raw);
    if (nul !== null) throw new AppError('VALIDATION_FAILED', `${nul}: text must not contain NUL characters`, { issues: [{ path: nul, message: 'text must not contain NUL characters' }] });
    const parsed = strictInput.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error);
    const input = parsed.data;
    const user = req.authUser;
    const ctx: OpContext = {
      get user(): AuthUser {
        if (!user) throw new AppError('UNAUTHENTICATED', 'Sign in first');
        return user;
      },
      optionalUser: user,
      services,
      operation: op.name,
      requestId: req.id,
      ip: req.ip,
      userAgent: req.headers['user-agent'],
      grantToken: typeof req.headers['x-grant-token'] === 'string' ? req.headers['x-grant-token'] : undefined,
      idempotencyKey: typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined,
      setHeader: (name, value) => void reply.header(name, value),
      ahead: {},
    };
    const reads = op.readAhead?.(input, ctx) ?? {};
    return { input, ctx, reads };
  };

  /** The gates and the handler; `ahead` is the read-ahead when the Idempotency-Key claim already read it. */
  const execute = async ({ input, ctx, reads }: Prepared, reply: FastifyReply, ahead?: Record<string, unknown>): Promise<{ status: number; body: unknown }> => {
    if (ahead) (ctx as { ahead: Record<string, unknown> }).ahead = ahead;
    else if (Object.keys(reads).length) (ctx as { ahead: Record<string, unknown> }).ahead = await readTogether(services.db, reads);
    if (op.precheck) await op.precheck(input, ctx);
    if (op.gates?.pin) {
      await services.pins.verify(ctx.user.id, 'transaction', String((input as { pin?: unknown }).pin ?? ''), 'INVALID_PIN');
    }
    if (op.gates?.kycTier && ctx.user.kycTier < op.gates.kycTier) {
      throw new AppError('KYC_TIER_REQUIRED', `KYC Tier ${op.gates.kycTier} is required for this operation`);
    }
    if (op.gates?.stepUp) {
      if (!services.stepUp) throw new Error(`${op.name} declares a step-up gate but no step-up service is registered`);
      await services.stepUp.require(ctx.user, ctx.grantToken);
    }
    if (op.gates?.reauth) await services.security.twoFactor.reauth.require(ctx.user, ctx.grantToken);
    const result = await op.handler(input, ctx);
    const out = op.output.parse(result);
    if (op.cacheSeconds && op.method === 'GET') reply.header('cache-control', `private, max-age=${op.cacheSeconds}`);
    return { status: 200, body: { ok: true, ...out } };
  };

  const preparedOrRefusal = (req: FastifyRequest, reply: FastifyReply): Prepared | AppError => {
    try {
      return prepare(req, reply);
    } catch (err) {
      if (err instanceof AppError) return err;
      throw err;
    }
  };

  /** An AppError becomes its answer (stored under an Idempotency-Key like any answer); anything else is a 500. */
  const answer = async (reply: FastifyReply, fn: () => Promise<{ status: number; body: unknown }>): Promise<{ status: number; body: unknown }> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof AppError) {
        if (err.retryAfter) reply.header('retry-after', String(Math.ceil(err.retryAfter)));
        return { status: err.status, body: errorBody(err) };
      }
      throw err;
    }
  };

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const key = req.headers['idempotency-key'];
    let res: { status: number; body: unknown; replayed?: boolean };
    if (op.method === 'POST' && req.authUser && typeof key === 'string' && key.length > 0) {
      if (key.length > 255) throw new AppError('VALIDATION_FAILED', 'Idempotency-Key must be at most 255 characters');
      // Bad input is refused under the key too (its answer is stored and replayed), so it is kept, not thrown here.
      const p = preparedOrRefusal(req, reply);
      const reads = p instanceof AppError ? {} : p.reads;
      res = await withIdempotency(
        services.db,
        services.clock,
        { userId: req.authUser.id, key, operation: op.name, requestHash: sha256(`${op.name}\n${canonicalJson(req.body ?? null)}`) },
        (ahead) =>
          answer(reply, async () => {
            if (p instanceof AppError) throw p;
            return execute(p, reply, ahead);
          }),
        // The read-ahead rides on the claim statement.
        Object.keys(reads).length ? readColumns(reads) : undefined,
      );
      if (res.replayed) reply.header('idempotent-replayed', 'true');
    } else {
      res = await answer(reply, async () => execute(prepare(req, reply), reply));
    }
    if (wantsCookieTransport(req)) {
      if (op.endsSession) clearRefreshCookie(config, reply);
      else return reply.status(res.status).send(moveRefreshTokenToCookie(config, reply, res.body as never));
    }
    return reply.status(res.status).send(res.body);
  };

  // One budget per operation across its path forms: the limiter is shared by both routes and its key names the
  // operation (a per-route limit would give /_serverFn/X and /api/v1/X a budget each).
  const limit = app.rateLimit({ max: perMinute, timeWindow: 60_000, keyGenerator: (req) => `${op.name}|${rateLimitKey(req)}` });
  for (const url of paths) {
    app.route({
      method: op.method,
      url,
      bodyLimit: op.bodyLimit,
      config: { operation: op.name },
      preHandler: limit,
      onRequest: auth === 'public' ? async (req) => authenticate(req).catch(() => undefined) : authenticate,
      handler,
    });
  }
}

