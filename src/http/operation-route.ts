import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { runParts } from '../db/change-statements.js';
import { inRequestScope, type RequestClaim } from '../db/request-scope.js';
import { AppError } from '../kernel/errors.js';
import { addressKey } from '../lib/address-key.js';
import { canonicalJson } from '../lib/canonical-json.js';
import { sha256 } from '../lib/crypto.js';
import { serverFnPath, versionedPath, type AnyOperation, type OpContext, type RateClass } from '../platform/operation.js';
import type { Read } from '../platform/reads.js';
import type { Services } from '../platform/services.js';
import { statusOf } from './errors.js';
import { withIdempotency } from './idempotency.js';
import { authenticationOf } from './operation-auth.js';
import { requireIdempotencyKey, testWorldAnswer, underSpendLimit } from './operation-key.js';
import { passGates } from './operation-gates.js';
import { prepare, preparedOrRefusal, type Prepared } from './operation-input.js';
import { setupOf, type OperationSetup } from './operation-setup.js';
import { clearRefreshCookie, moveRefreshTokenToCookie, wantsCookieTransport } from './session-cookie.js';

/**
 * One registry operation as HTTP routes (its `/_serverFn` path and, when versioned, its `/api/v1` path): the
 * envelope, authentication, validation, the shared rate-limit budget, Idempotency-Key, read-ahead and the
 * cookie transport of session tokens. buildHttpApp (app.ts) calls registerOperation for every operation; the
 * once-per-operation work is operation-setup.ts, authentication operation-auth.ts, the input and context
 * operation-input.ts, the gates operation-gates.ts.
 */
export const RATE_CLASSES: Record<RateClass, (config: Config) => number> = {
  default: (c) => c.rateLimitPerMinute,
  money: (c) => Math.max(1, Math.floor(c.rateLimitPerMinute / 2)),
  auth: () => 20,
  strict: () => 10,
};

/** `file`: a download's answer (the operation's `download`), sent as its bytes rather than as JSON. */
type Answer = { status: number; body: unknown; file?: { fileName: string; contentType: string; body: Uint8Array } };

export function errorBody(e: AppError) {
  return {
    ok: false as const,
    error: { code: e.code, message: e.message, ...(e.issues ? { issues: e.issues } : {}), ...(e.details ? { details: e.details } : {}) },
  };
}

/** The reads' answers under their names (the declaration's keys), from answers in the reads' order. */
const byName = (reads: readonly [string, Read][], answers: readonly unknown[]) =>
  Object.fromEntries(reads.map(([k], i) => [k, answers[i] ?? null]));

/**
 * Whose budget a request spends: the signed-in account's, else the client address's (an IPv6 address by its /64,
 * lib/address-key.ts). A public operation always spends the address's, token or not: otherwise each throw-away
 * account's token would buy a fresh per-address budget.
 */
export function rateLimitKey(req: FastifyRequest, opts: { public?: boolean } = {}): string {
  if (opts.public || !req.authUser) return `ip:${addressKey(req.ip)}`;
  // Issue 45: each API key has a budget of its own, apart from its customer's sessions.
  return req.authUser.apiKey ? `k:${req.authUser.apiKey.id}` : `u:${req.authUser.id}`;
}

/** Whether a limiter key (rateLimitKey's, perhaps after `<operation>|`) is a client address's budget. */
export const isAddressBudget = (key: string) => key.slice(key.indexOf('|') + 1).startsWith('ip:');

/**
 * The gates and the handler, in the request's scope (db/request-scope.ts): its Idempotency-Key claim (`claim`) and
 * its read-ahead's answers by read key; `answers` are the reads' when the claim already read them.
 */
async function execute(
  s: OperationSetup,
  { input, ctx, reads }: Prepared,
  reply: FastifyReply,
  claim: RequestClaim | null,
  answers?: unknown[],
): Promise<Answer> {
  let ahead: Map<string, unknown> | undefined;
  if (reads.length) {
    const read =
      answers ??
      (await runParts(
        s.services.db,
        reads.map(([, r]) => r),
      ));
    (ctx as { ahead: Record<string, unknown> }).ahead = byName(reads, read);
    ahead = new Map(reads.map(([, r], i) => [r.key, read[i] ?? null]));
  }
  return inRequestScope(claim, () => gatesAndHandler(s, input, ctx, reply), ahead);
}

async function gatesAndHandler(s: OperationSetup, input: Prepared['input'], ctx: OpContext, reply: FastifyReply): Promise<Answer> {
  const { op, services, adminAudit } = s;
  if (op.precheck || op.gates) await passGates(s, input, ctx);
  const run = async () => {
    const out = op.output.parse(
      ctx.optionalUser?.apiKey ? await underSpendLimit(s, ctx, input, () => op.handler(input, ctx)) : await op.handler(input, ctx),
    );
    // Inside the call's transaction: the admins hear of exactly the changes that commit.
    if (op.announce && adminAudit) await services.operators.announce(ctx.user, op.name, adminAudit.callOf(reply.request).record);
    return out;
  };
  const out = adminAudit ? await adminAudit.run(reply.request, run) : await run();
  if (op.cacheSeconds && op.method === 'GET') reply.header('cache-control', `private, max-age=${op.cacheSeconds}`);
  if (op.download) return { status: 200, body: { ok: true }, file: out as NonNullable<Answer['file']> };
  return { status: 200, body: { ok: true, ...out } };
}

/** An AppError becomes its answer (stored under an Idempotency-Key like any answer); anything else is a 500. */
async function answer(reply: FastifyReply, fn: () => Promise<Answer>): Promise<Answer> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) {
      if (err.retryAfter) reply.header('retry-after', String(Math.ceil(err.retryAfter)));
      return { status: statusOf(err.code), body: errorBody(err) };
    }
    throw err;
  }
}

/** A POST under an Idempotency-Key: its claim, read-ahead and answer in the key's store (http/idempotency.ts). */
async function answerOnce(
  s: OperationSetup,
  req: FastifyRequest,
  reply: FastifyReply,
  key: string,
): Promise<Answer & { replayed?: boolean }> {
  const { op, services, config } = s;
  if (key.length > 255) throw new AppError('VALIDATION_FAILED', 'Idempotency-Key must be at most 255 characters');
  // Bad input is refused under the key too (its answer is stored and replayed), so it is kept, not thrown here.
  const p = preparedOrRefusal(s, req, reply);
  const reads = p instanceof AppError ? [] : p.reads;
  return withIdempotency(
    services.db,
    services.clock,
    { userId: req.authUser!.id, key, operation: op.name, requestHash: sha256(`${op.name}\n${canonicalJson(req.body ?? null)}`) },
    (claim, answers) =>
      answer(reply, async () => {
        if (p instanceof AppError) throw p;
        // The ledger finds the claim in the request's scope (db/request-scope.ts), which ends when the gates and the
        // handler return: the handler and the services it calls never see it.
        return execute(s, p, reply, claim, answers);
      }),
    // The read-ahead joins the claim statement.
    reads.map(([, r]) => r),
    { batchMax: config.requestBatchMax, log: services.log },
  );
}

async function handle(s: OperationSetup, req: FastifyRequest, reply: FastifyReply) {
  const { op, config, adminAudit } = s;
  if (await testWorldAnswer(s, req, reply)) return reply;
  const key = req.headers['idempotency-key'];
  requireIdempotencyKey(s, req);
  let res: Answer & { replayed?: boolean };
  if (op.method === 'POST' && req.authUser && typeof key === 'string' && key.length > 0) {
    res = await answerOnce(s, req, reply, key);
    if (res.replayed) reply.header('idempotent-replayed', 'true');
  } else {
    res = await answer(reply, async () => execute(s, prepare(s, req, reply), reply, null));
  }
  if (adminAudit) await adminAudit.finish(req, (res.body as { ok: boolean; error?: { code: string } }).error?.code ?? 'ok');
  if (res.file) return sendFile(reply, res.file);
  if (wantsCookieTransport(req)) {
    if (op.endsSession) clearRefreshCookie(config, reply);
    else return reply.status(res.status).send(moveRefreshTokenToCookie(config, reply, res.body as never));
  }
  return reply.status(res.status).send(res.body);
}

/** A download's file (issue 43): its bytes, its type, an attachment under its name (quotes and line breaks left out), never cached. */
function sendFile(reply: FastifyReply, file: NonNullable<Answer['file']>) {
  const name = file.fileName.replace(/["\\\r\n]/g, '');
  return reply
    .status(200)
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store')
    .send(Buffer.from(file.body.buffer, file.body.byteOffset, file.body.byteLength));
}

/** The outcome an audit row records for an error: its code, or what the error handler answers for it. */
function failureCode(err: Error): string {
  if (err instanceof AppError) return err.code;
  const status = (err as { statusCode?: number }).statusCode ?? 500;
  return status === 413 ? 'PAYLOAD_TOO_LARGE' : status < 500 ? 'BAD_REQUEST' : 'INTERNAL';
}

/** The route's handler; an admin call's thrown error still leaves its audit row. */
function handlerOf(s: OperationSetup): (req: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  const audit = s.adminAudit;
  if (!audit) return (req, reply) => handle(s, req, reply);
  return async (req, reply) => {
    try {
      return await handle(s, req, reply);
    } catch (err) {
      await audit.finish(req, failureCode(err as Error));
      throw err;
    }
  };
}

export function registerOperation(app: FastifyInstance, op: AnyOperation, services: Services, config: Config) {
  const s = setupOf(op, services, config);
  const { adminAudit } = s;
  const onRequest = authenticationOf(s);
  const handler = handlerOf(s);
  // One budget per operation across its path forms: the limiter is shared by both routes and its key names the
  // operation (a per-route limit would give /_serverFn/X and /api/v1/X a budget each).
  const limit = app.rateLimit({
    max: RATE_CLASSES[op.rateLimit ?? 'default'](config),
    timeWindow: 60_000,
    keyGenerator: (req) => `${op.name}|${rateLimitKey(req, { public: s.auth === 'public' })}`,
  });
  for (const url of [serverFnPath(op), ...(op.versioned ? [versionedPath(op)] : [])]) {
    app.route({
      method: op.method,
      url,
      bodyLimit: op.bodyLimit,
      config: { operation: op.name },
      preHandler: limit,
      onRequest,
      handler,
      // A body refused before the handler (the JSON parser, the body limit) still leaves the admin call's row.
      ...(adminAudit
        ? { onError: async (req: FastifyRequest, _reply: FastifyReply, err: Error) => adminAudit.refused(req, failureCode(err)) }
        : {}),
    });
  }
}
