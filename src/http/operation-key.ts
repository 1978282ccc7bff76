import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../kernel/actor.js';
import { AppError } from '../kernel/errors.js';
import { toKobo } from '../kernel/money.js';
import { scopeOf, type OpContext } from '../platform/operation.js';
import type { OperationSetup } from './operation-setup.js';

/**
 * A request made with an API key (issue 45, modules/developers): who the key stands for, whether its scopes allow the
 * operation, that a write carries an Idempotency-Key, and the key's daily spend. A key never needs the transaction
 * PIN (operation-gates.ts): its scopes and limits stand in for it.
 */

/** `<brand>_sk_test_...` or `<brand>_sk_live_...`: a key, not a session's access token. */
export const KEY_TOKEN = /^[a-z][a-z0-9]{1,15}_sk_(test|live)_/;

/** A test key (`<brand>_sk_test_`), answered by the test world while this app has one (the live app). */
const TEST_KEY = /^[a-z][a-z0-9]{1,15}_sk_test_/;

/** Requests this app hands to the test world (test mode, modules/developers/test-mode.ts) instead of answering. */
const forwarded = new WeakSet<FastifyRequest>();

/**
 * Whether the request goes to the test world: a test key while this app is the live one. It is never authenticated
 * here, so nothing live reads or writes for it; an operator operation is refused outright.
 */
export function forwardsToTestWorld({ services, auth }: OperationSetup, req: FastifyRequest, token: string): boolean {
  if (!services.testWorld || !TEST_KEY.test(token)) return false;
  if (auth === 'admin') throw new AppError('FORBIDDEN', 'Operator operations need a signed-in session, not an API key');
  forwarded.add(req);
  return true;
}

const PASSED_ON = ['authorization', 'idempotency-key', 'content-type', 'user-agent', 'accept-language'];
const PASSED_BACK = ['content-type', 'retry-after', 'idempotent-replayed', 'cache-control', 'x-ratelimit-limit', 'x-ratelimit-remaining'];

/** Answers a forwarded request with the test world's answer (true), or leaves the request to this app (false). */
export async function testWorldAnswer({ services }: OperationSetup, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  if (!forwarded.has(req)) return false;
  const headers = Object.fromEntries(PASSED_ON.flatMap((h) => (typeof req.headers[h] === 'string' ? [[h, req.headers[h] as string]] : [])));
  const res = await services.testWorld!.forward({
    method: req.method,
    url: req.url,
    headers,
    body: req.body === undefined || req.body === null ? undefined : JSON.stringify(req.body),
    ip: req.ip,
  });
  for (const h of PASSED_BACK) if (res.headers[h] !== undefined) reply.header(h, res.headers[h]);
  await reply.status(res.status).send(res.body);
  return true;
}

/** The key's caller, refused with 403 FORBIDDEN when its scopes do not cover the operation. */
export async function keyCaller({ op, services }: OperationSetup, req: FastifyRequest, token: string): Promise<AuthUser> {
  const user = await services.developers.authenticate(token, req.ip);
  const needed = scopeOf(op);
  if (needed === 'session' || !user.apiKey!.scopes.includes(needed))
    throw new AppError(
      'FORBIDDEN',
      needed === 'session'
        ? `${op.name} needs a signed-in session, not an API key`
        : `${op.name} needs an API key with the ${needed} scope`,
    );
  return user;
}

/** A write by key is replayable only with an Idempotency-Key, so it must carry one (checked before anything runs). */
export function requireIdempotencyKey(s: OperationSetup, req: FastifyRequest): void {
  if (!req.authUser?.apiKey || s.op.method !== 'POST') return;
  const key = req.headers['idempotency-key'];
  if (typeof key !== 'string' || !key.length)
    throw new AppError('VALIDATION_FAILED', 'A write with an API key needs an Idempotency-Key header', {
      issues: [{ path: 'Idempotency-Key', message: 'required with an API key' }],
    });
}

/** Naira of a number-valued field, if the object has one. */
const nairaField = (o: unknown, field: string): number | null => {
  const v = (o as Record<string, unknown> | null)?.[field];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};

/**
 * What a money operation's answer says the wallet paid: a purchase's `transaction` (nothing once it failed), else
 * `amount`, else `paid` (a level's upgrade: nothing on a repeat).
 */
function chargedOf(out: unknown, reserved: bigint): bigint {
  const tx = (out as { transaction?: { amount?: unknown; status?: unknown } } | null)?.transaction;
  if (tx && typeof tx === 'object') return tx.status === 'failed' ? 0n : toKobo(nairaField(tx, 'amount') ?? 0);
  const amount = nairaField(out, 'amount') ?? nairaField(out, 'paid');
  return amount === null ? reserved : toKobo(amount);
}

/**
 * Runs a money operation's handler under the key's daily spend limit: what the request will pay is reserved first
 * (refused when it would pass the limit, or when the limit is reached), then corrected to what the answer says was
 * charged. What it will pay is the input's `amount`, else the operation's `spend` (a plan's quoted price, a batch of
 * cards' price: one read, by the handler's own prices); an operation with neither is counted once made. A refusal (an
 * AppError) releases the reservation.
 */
export async function underSpendLimit<T>(s: OperationSetup, ctx: OpContext, input: unknown, run: () => Promise<T>): Promise<T> {
  const key = ctx.user.apiKey;
  if (!key?.dailyLimit || !s.op.gates?.money) return run();
  const asked = nairaField(input, 'amount') ?? (s.op.spend ? await s.op.spend(input as never, ctx) : null);
  const reserved = asked === null ? 0n : toKobo(asked);
  const developers = s.services.developers;
  await developers.reserveSpend(key.id, reserved);
  let out: T;
  try {
    out = await run();
  } catch (err) {
    if (err instanceof AppError) await developers.adjustSpend(key.id, -reserved);
    throw err;
  }
  await developers.adjustSpend(key.id, chargedOf(out, reserved) - reserved);
  return out;
}
