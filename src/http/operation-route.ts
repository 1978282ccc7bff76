import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { runParts, type Part } from '../db/parts.js';
import { canonicalJson } from '../lib/canonical-json.js';
import { sha256 } from '../lib/crypto.js';
import type { Services } from '../platform/services.js';
import { AppError, validationError } from '../kernel/errors.js';
import { withIdempotency } from './idempotency.js';
import { inRequestScope } from '../db/request-scope.js';
import {
  adminDeclarationProblem,
  authOf,
  serverFnPath,
  versionedPath,
  type AnyOperation,
  type OpContext,
  type RateClass,
} from '../platform/operation.js';
import { addressKey } from '../lib/address-key.js';
import { mayRun, type AuthUser } from '../kernel/actor.js';
import { createAdminAudit, noAudit } from './admin-audit.js';
import {
  clearRefreshCookie,
  deviceTokensFromCookie,
  moveRefreshTokenToCookie,
  refreshTokenFromCookie,
  setDeviceCookie,
  wantsCookieTransport,
} from './session-cookie.js';
import { statusOf } from './errors.js';

/**
 * One registry operation as HTTP routes (its `/_serverFn` path and, when versioned, its `/api/v1` path): the
 * envelope, authentication, validation, the shared rate-limit budget, Idempotency-Key, read-ahead and the
 * cookie transport of session tokens. buildApp (app.ts) calls registerOperation for every operation.
 */
export const RATE_CLASSES: Record<RateClass, (config: Config) => number> = {
  default: (c) => c.rateLimitPerMinute,
  money: (c) => Math.max(1, Math.floor(c.rateLimitPerMinute / 2)),
  auth: () => 20,
  strict: () => 10,
};

export function errorBody(e: AppError) {
  return {
    ok: false as const,
    error: { code: e.code, message: e.message, ...(e.issues ? { issues: e.issues } : {}), ...(e.details ? { details: e.details } : {}) },
  };
}

/**
 * Path of the first string (value or key) holding U+0000, or null. PostgreSQL text cannot store NUL, so such
 * input would otherwise reach the database and fail there as a 500 (found by fuzzing); no field needs it.
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

/** Reads the `{data}` envelope of a POST (docs/design.md §4); a missing body means no inputs. */
function unwrapEnvelope(body: unknown): unknown {
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw new AppError('VALIDATION_FAILED', 'Body must be a JSON object {"data": {...}}', {
      issues: [{ path: '(body)', message: 'expected an object' }],
    });
  const keys = Object.keys(body);
  const extra = keys.filter((k) => k !== 'data');
  if (extra.length)
    throw new AppError('VALIDATION_FAILED', `Unknown top-level field(s): ${extra.join(', ')}; send inputs inside "data"`, {
      issues: extra.map((k) => ({ path: k, message: 'unknown field' })),
    });
  const data = (body as { data?: unknown }).data;
  if (data === undefined || data === null) return {};
  if (typeof data !== 'object' || Array.isArray(data))
    throw new AppError('VALIDATION_FAILED', '"data" must be an object', { issues: [{ path: 'data', message: 'expected an object' }] });
  return data;
}

function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : null;
}

/** The reads' answers under their names (the declaration's keys), from answers in the reads' order. */
const byName = (reads: readonly [string, Part][], answers: readonly unknown[]) =>
  Object.fromEntries(reads.map(([k], i) => [k, answers[i] ?? null]));

/**
 * Whose budget a request spends: the signed-in account's, else the client address's (an IPv6 address by its /64,
 * lib/address-key.ts). A public operation always spends the address's, token or not: otherwise each throw-away
 * account's token would buy a fresh per-address budget.
 */
export function rateLimitKey(req: FastifyRequest, opts: { public?: boolean } = {}): string {
  return req.authUser && !opts.public ? `u:${req.authUser.id}` : `ip:${addressKey(req.ip)}`;
}

/** Whether a limiter key (rateLimitKey's, perhaps after `<operation>|`) is a client address's budget. */
export const isAddressBudget = (key: string) => key.slice(key.indexOf('|') + 1).startsWith('ip:');

export function registerOperation(app: FastifyInstance, op: AnyOperation, services: Services, config: Config) {
  // The services the operation's module declared, once: its handlers see these and nothing else of the container.
  const api = Object.fromEntries(op.needs.map((name) => [name, services[name]])) as OpContext['api'];
  const auth = authOf(op);
  // Every admin operation says which roles may run it, and every admin write its step-up (docs/security.md).
  const declarationProblem = adminDeclarationProblem(op);
  if (declarationProblem) throw new Error(declarationProblem);
  const adminRoles = op.roles ?? [];
  // One audit row per admin call, in the transaction of its effect (http/admin-audit.ts).
  const adminAudit =
    auth === 'admin'
      ? createAdminAudit({
          db: services.db,
          clock: services.clock,
          operation: op.name,
          upstream: Boolean(op.upstream),
          read: op.method === 'GET',
          input: op.input,
          digestKey: config.secrets.pinPepper,
        })
      : null;
  // OPERATOR_2FA=required: an operator without a confirmed authenticator or passkey runs only the enrolment operations.
  const needsOperatorFactor = auth === 'admin' && config.operators.twoFactor === 'required' && !op.enrolsOperatorFactor;
  const strictInput = op.input.strict();
  const paths = [serverFnPath(op), ...(op.versioned ? [versionedPath(op)] : [])];
  const perMinute = RATE_CLASSES[op.rateLimit ?? 'default'](config);

  // Issue 41: only a person's requests move an operator's idle clock. The header is the client's word: enough for the
  // honest operator's unattended tab, which is what the idle end protects (docs/security.md).
  const activityOf = (req: FastifyRequest) => (op.background || req.headers['x-activity'] === 'background' ? 'background' : 'person');

  const authenticate = async (req: FastifyRequest) => {
    const token = bearerToken(req);
    if (!token) {
      if (auth === 'public') return;
      throw new AppError('UNAUTHENTICATED', 'Authorization: Bearer <access token> is required');
    }
    try {
      req.authUser = await services.identity.authenticate(token, activityOf(req));
    } catch (err) {
      if (auth === 'public') return; // a stale token on a public operation is ignored
      throw err;
    }
    // Issue 30: a frozen customer signs in and reads but moves no money, whatever the input (before validation and
    // every gate). The flag rides on the session state authenticate already loaded (cached): no extra round trip.
    if (op.gates?.money && (req.authUser.frozen ?? (await services.customers.isFrozen(req.authUser.id))))
      throw new AppError('ACCOUNT_FROZEN', 'This account is on hold: an operator froze it, so money cannot move until it is unfrozen');
    if (auth === 'admin') {
      const held = req.authUser.operatorRoles;
      if (!held.length) throw new AppError('FORBIDDEN', 'Operator role required');
      if (!mayRun(held, adminRoles)) throw new AppError('FORBIDDEN', `${op.name} needs the ${['admin', ...adminRoles].join(' or ')} role`);
      if (needsOperatorFactor && !(await services.security.hasOperatorFactor(req.authUser)))
        throw new AppError(
          'OPERATOR_2FA_REQUIRED',
          'Operators need a second factor: set up an authenticator (beginTotpEnrollment) or a passkey (adminPasskeyRegisterOptions) first',
        );
    }
  };

  type Prepared = { input: Parameters<typeof op.handler>[0]; ctx: OpContext; reads: [string, Part][] };

  /** Validates the input and builds the context and the read-ahead; throws AppError on bad input. */
  const prepare = (req: FastifyRequest, reply: FastifyReply): Prepared => {
    let raw = op.method === 'GET' ? (req.query ?? {}) : unwrapEnvelope(req.body);
    // Cookie transport: the web app's refresh token comes from its HttpOnly cookie, not the body.
    if (op.refreshTokenFromCookie && wantsCookieTransport(req) && (raw as { refreshToken?: unknown }).refreshToken === undefined) {
      const fromCookie = refreshTokenFromCookie(req);
      if (!fromCookie) throw new AppError('UNAUTHENTICATED', 'No session cookie; sign in again');
      raw = { ...(raw as object), refreshToken: fromCookie };
    }
    const nul = nulPath(raw);
    if (nul !== null)
      throw new AppError('VALIDATION_FAILED', `${nul}: text must not contain NUL characters`, {
        issues: [{ path: nul, message: 'text must not contain NUL characters' }],
      });
    const parsed = strictInput.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error);
    const input = parsed.data;
    if (adminAudit) adminAudit.callOf(req).input = input;
    const user = req.authUser;
    const ctx: OpContext = {
      get user(): AuthUser {
        if (!user) throw new AppError('UNAUTHENTICATED', 'Sign in first');
        return user;
      },
      optionalUser: user,
      api,
      operation: op.name,
      requestId: req.id,
      ip: req.ip,
      userAgent: req.headers['user-agent'],
      grantToken: typeof req.headers['x-grant-token'] === 'string' ? req.headers['x-grant-token'] : undefined,
      idempotencyKey: typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined,
      setHeader: (name, value) => void reply.header(name, value),
      deviceTokens: deviceTokensFromCookie(req),
      rememberDevice: (tokens) => setDeviceCookie(config, reply, tokens),
      ahead: {},
      audit: adminAudit ? adminAudit.callOf(req).record : noAudit,
    };
    const reads = Object.entries(op.readAhead?.(input, ctx) ?? {});
    return { input, ctx, reads };
  };

  /** The gates and the handler; `answers` are the reads' when the Idempotency-Key claim already read them. */
  const execute = async (
    { input, ctx, reads }: Prepared,
    reply: FastifyReply,
    answers?: unknown[],
  ): Promise<{ status: number; body: unknown }> => {
    if (reads.length) {
      const read =
        answers ??
        (await runParts(
          services.db,
          reads.map(([, r]) => r),
        ));
      (ctx as { ahead: Record<string, unknown> }).ahead = byName(reads, read);
    }
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
    const run = async () => {
      const out = op.output.parse(await op.handler(input, ctx));
      // Inside the call's transaction: the admins hear of exactly the changes that commit.
      if (op.announce && adminAudit) await services.operators.announce(ctx.user, op.name, adminAudit.callOf(reply.request).record);
      return out;
    };
    const out = adminAudit ? await adminAudit.run(reply.request, run) : await run();
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
  const answer = async (
    reply: FastifyReply,
    fn: () => Promise<{ status: number; body: unknown }>,
  ): Promise<{ status: number; body: unknown }> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof AppError) {
        if (err.retryAfter) reply.header('retry-after', String(Math.ceil(err.retryAfter)));
        return { status: statusOf(err.code), body: errorBody(err) };
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
      const reads = p instanceof AppError ? [] : p.reads;
      res = await withIdempotency(
        services.db,
        services.clock,
        { userId: req.authUser.id, key, operation: op.name, requestHash: sha256(`${op.name}\n${canonicalJson(req.body ?? null)}`) },
        (claim, answers) =>
          answer(reply, async () => {
            if (p instanceof AppError) throw p;
            // The ledger finds the claim in the request's scope (db/request-scope.ts), which ends when the gates and the
            // handler return: the handler and the services it calls never see it.
            return inRequestScope(claim, () => execute(p, reply, answers));
          }),
        // The read-ahead joins the claim statement.
        reads.map(([, r]) => r),
        { batchMax: config.requestBatchMax, log: services.log },
      );
      if (res.replayed) reply.header('idempotent-replayed', 'true');
    } else {
      res = await answer(reply, async () => execute(prepare(req, reply), reply));
    }
    if (adminAudit) await adminAudit.finish(req, (res.body as { ok: boolean; error?: { code: string } }).error?.code ?? 'ok');
    if (wantsCookieTransport(req)) {
      if (op.endsSession) clearRefreshCookie(config, reply);
      else return reply.status(res.status).send(moveRefreshTokenToCookie(config, reply, res.body as never));
    }
    return reply.status(res.status).send(res.body);
  };

  /** The outcome an audit row records for an error: its code, or what the error handler answers for it. */
  const failureCode = (err: Error): string => {
    if (err instanceof AppError) return err.code;
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    return status === 413 ? 'PAYLOAD_TOO_LARGE' : status < 500 ? 'BAD_REQUEST' : 'INTERNAL';
  };

  /** Admin calls: a refusal after sign-in (roles, second factor) and a thrown error still leave their audit row. */
  const auditedAuthenticate = async (req: FastifyRequest) => {
    try {
      await authenticate(req);
    } catch (err) {
      if (err instanceof AppError) await adminAudit!.refused(req, err.code);
      throw err;
    }
  };
  const auditedHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      return await handler(req, reply);
    } catch (err) {
      await adminAudit!.finish(req, failureCode(err as Error));
      throw err;
    }
  };

  // One budget per operation across its path forms: the limiter is shared by both routes and its key names the
  // operation (a per-route limit would give /_serverFn/X and /api/v1/X a budget each).
  const limit = app.rateLimit({
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (req) => `${op.name}|${rateLimitKey(req, { public: auth === 'public' })}`,
  });
  for (const url of paths) {
    app.route({
      method: op.method,
      url,
      bodyLimit: op.bodyLimit,
      config: { operation: op.name },
      preHandler: limit,
      onRequest:
        auth === 'public' ? async (req) => authenticate(req).catch(() => undefined) : adminAudit ? auditedAuthenticate : authenticate,
      handler: adminAudit ? auditedHandler : handler,
      // A body refused before the handler (the JSON parser, the body limit) still leaves the admin call's row.
      ...(adminAudit
        ? { onError: async (req: FastifyRequest, _reply: FastifyReply, err: Error) => adminAudit.refused(req, failureCode(err)) }
        : {}),
    });
  }
}
