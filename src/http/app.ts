import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { drainUnreadBodies } from './body-drain.js';
import { createMetrics } from './metrics.js';
import type { Config } from '../config.js';
import { MAX_JSON_DEPTH, jsonDepthExceeds } from '../lib/json-depth.js';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import cors from '@fastify/cors';
import { z } from 'zod';
import client from 'prom-client';
import { sql } from 'drizzle-orm';
import { isDatabaseUnavailable } from '../db/client.js';
import { pendingMigrations } from '../db/migrate.js';
import { ulid } from '../kernel/ids.js';
import type { Services } from '../platform/services.js';
import type { AnyOperation } from '../platform/operation.js';
import { AppError, validationError } from '../kernel/errors.js';
import { errorBody, isAddressBudget, rateLimitKey, registerOperation } from './operation-route.js';
import { DOCS_CSP, securityHeaders } from './security-headers.js';
import type { AuthUser } from '../kernel/actor.js';
import { buildOpenApi } from './openapi.js';
import { registerWebApp } from './web-app.js';
import { registerPublicRoutes } from './public-routes.js';
import { statusOf } from './errors.js';

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

export interface HttpOptions {
  /** Every module's operations (the module list's), each served at its path forms and described in OpenAPI. */
  operations: readonly AnyOperation[];
  /** The sandbox's simulators and control routes (the composition root's; null outside the sandbox). */
  sandboxRoutes: ((app: FastifyInstance, services: Services) => Promise<void> | void) | null;
  /** Stops what the built service runs (the job queue, its feeds, the database it opened) when the app closes. */
  close: () => Promise<void>;
}

function isLoopback(ip: string): boolean {
  return ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1' || ip.startsWith('127.');
}

type Metrics = ReturnType<typeof createMetrics>;

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

function createFastify(services: Services): FastifyInstance {
  const { config, log } = services;
  return Fastify({
    loggerInstance: log as unknown as FastifyBaseLogger,
    bodyLimit: config.bodyLimit,
    // A hop count trusts that many proxies nearest to us (the right-most X-Forwarded-For entries), as a function
    // because Fastify's types list only the list and boolean forms.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // Request ids are always ours; a client's own id is kept apart (clientRequestId) when short and plain.
    genReqId: () => `req_${ulid()}`,
    requestIdHeader: false,
    ajv: { customOptions: { removeAdditional: false } },
  });
}

/** The hooks every request passes: replica writes, security headers and ids, the JSON depth, the latency. */
function addRequestHooks(app: FastifyInstance, services: Services, latency: Metrics['latency']) {
  // Read-your-own-writes with a replica (src/db/replica.ts): a signed-in user's request that may have written sends
  // their next reads to the primary until the replica has replayed it. Marked before the answer leaves.
  if (services.replica.configured)
    app.addHook('onSend', (req, _reply, payload, done) => {
      if (req.authUser && req.method !== 'GET' && req.method !== 'HEAD') services.replica.noteWrite(req.authUser.id);
      done(null, payload);
    });

  // Security headers (helmet's and the permissions policy, worked out once) and the request id, in one hook. No
  // content security policy here: the API answers JSON, and each HTML page sets its own (the web app, /docs, not-me).
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
  // JSON nested deeper than MAX_JSON_DEPTH is refused before anything walks it recursively (the
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
}

/** Every error a route throws, or Fastify raises before one, answered in the error envelope. */
function handleError(err: any, req: FastifyRequest, reply: FastifyReply) {
  let appErr: AppError;
  if (err instanceof AppError) appErr = err;
  else if (err instanceof z.ZodError) appErr = validationError(err);
  else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413)
    appErr = new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
  else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415)
    appErr = new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  else if (err.statusCode === 429)
    appErr = new AppError('RATE_LIMITED', 'Too many requests; slow down and retry', {
      retryAfter: Number(reply.getHeader('retry-after')) || 60,
    });
  else if (isDatabaseUnavailable(err)) {
    // Capacity or an outage, not a bug: the failing statement never reached the database (earlier statements of
    // the request may have; money requests are retried safely under their Idempotency-Key).
    req.log.warn({ err, operation: req.routeOptions.config?.operation }, 'database unavailable');
    appErr = new AppError('SERVICE_UNAVAILABLE', 'The service is busy; retry shortly', { retryAfter: 5 });
  } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500)
    appErr = new AppError(
      'BAD_REQUEST',
      err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError ? 'Body is not valid JSON' : 'Request is not valid',
    );
  else {
    const errorId = `err_${ulid()}`;
    req.log.error({ err, errorId, operation: req.routeOptions.config?.operation }, 'unhandled error');
    return reply.status(500).send({ ok: false, error: { code: 'INTERNAL', message: 'Something went wrong on our side', errorId } });
  }
  if (appErr.retryAfter) reply.header('retry-after', String(Math.ceil(appErr.retryAfter)));
  return reply.status(statusOf(appErr.code)).send(errorBody(appErr));
}

async function registerRateLimits(app: FastifyInstance, config: Config) {
  // ioredis is loaded only when Redis is configured (about 2 MB of heap otherwise kept; docs/scaling.md, "Memory").
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false })
    : null;
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler',
    enableDraftSpec: true,
    ...(redis ? { redis, nameSpace: config.redisKeyPrefix } : {}),
    keyGenerator: rateLimitKey,
    // Per-IP limits exempt loopback clients in the sandbox (docs/design.md §8); per-account limits still apply.
    allowList: (req, key) => config.sandbox && isAddressBudget(key) && isLoopback(req.ip),
    errorResponseBuilder: (_req, ctx) => {
      const e = new AppError('RATE_LIMITED', `Too many requests; retry in ${Math.ceil(ctx.ttl / 1000)} seconds`);
      return Object.assign(new Error(e.message), { statusCode: 429, appError: e });
    },
  });
  app.addHook('onClose', async () => {
    if (redis) redis.disconnect();
  });
}

/** The document depends on the registry and the public URL alone: built once per process for each (tests build many apps). */
const documents = new WeakMap<readonly AnyOperation[], Map<string, ReturnType<typeof buildOpenApi>>>();
function openApiOf(operations: readonly AnyOperation[], config: Config) {
  const byUrl = documents.get(operations) ?? new Map<string, ReturnType<typeof buildOpenApi>>();
  documents.set(operations, byUrl);
  const document = byUrl.get(config.publicUrl) ?? buildOpenApi(operations, config);
  byUrl.set(config.publicUrl, document);
  return document;
}

async function registerOpenApi(app: FastifyInstance, operations: readonly AnyOperation[], config: Config) {
  const openapi = openApiOf(operations, config);
  await app.register(fastifySwagger, { mode: 'static', specification: { document: openapi as any } });
  // Swagger UI under its own content security policy: its scripts and styles are files under /docs/static.
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CSP });
  app.get('/api/openapi.json', async () => openapi);
}

/** /healthz, /readyz (the database and its migrations), /metrics and the token keys. */
function registerProbes(app: FastifyInstance, services: Services, registry: Metrics['registry']) {
  const { config, database } = services;
  app.get('/healthz', async () => ({ ok: true }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await database.db.execute(sql`SELECT 1`);
      const pending = await pendingMigrations(database);
      if (pending.length)
        return reply
          .status(503)
          .send({ ok: false, error: { code: 'SERVICE_UNAVAILABLE', message: `Migrations pending: ${pending.join(', ')}` } });
      return { ok: true };
    } catch {
      return reply.status(503).send({ ok: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'Database is not reachable' } });
    }
  });
  // The metrics behind a bearer token (required in production; unset elsewhere leaves them open).
  const metricsAuth = config.metricsToken ? Buffer.from(`Bearer ${config.metricsToken}`) : null;
  app.get('/metrics', async (req, reply) => {
    if (metricsAuth) {
      const given = Buffer.from(req.headers.authorization ?? '');
      if (given.length !== metricsAuth.length || !timingSafeEqual(given, metricsAuth)) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer')
          .send({ ok: false, error: { code: 'UNAUTHENTICATED', message: 'The metrics need the bearer token METRICS_TOKEN' } });
      }
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  app.get('/.well-known/jwks.json', async () => services.tokens.jwks());
}

/**
 * Turns the built service into the HTTP app: Fastify, error handler, auth hook, idempotency, rate limits, the
 * operations' routes, the plain routes, OpenAPI, health and metrics. The composition root (services.ts, buildApp)
 * builds what it serves.
 */
export async function buildHttpApp(services: Services, opts: HttpOptions): Promise<FastifyInstance> {
  const { config, clock } = services;
  const app = createFastify(services);
  app.decorate('services', services);
  app.decorateRequest('authUser', null);
  drainUnreadBodies(app);
  const { registry, latency } = createMetrics({
    db: services.db,
    clock,
    stuckAfterMs: config.vtu.stuckAfterMs,
    replica: services.replica,
  });
  addRequestHooks(app, services, latency);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((req, reply) =>
    reply.status(404).send({ ok: false, error: { code: 'NOT_FOUND', message: `No route ${req.method} ${req.url.split('?')[0]}` } }),
  );

  await app.register(cors, { origin: config.corsOrigins.length ? config.corsOrigins : false });
  await registerRateLimits(app, config);
  await registerOpenApi(app, opts.operations, config);
  for (const op of opts.operations) registerOperation(app, op, services, config);
  registerProbes(app, services, registry);

  // Adapters reach the simulators on this same app without a socket while it is not listening (http-transport.ts).
  services.upstream.attach(app);
  await registerPublicRoutes(app, services);
  if (registerWebApp(app, config.webDir)) app.log.debug({ dir: config.webDir }, 'serving the web app');
  await opts.sandboxRoutes?.(app, services);

  app.addHook('onClose', opts.close);
  return app;
}
