import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Read } from '../platform/reads.js';
import type { AuthUser } from '../kernel/actor.js';
import { AppError, validationError } from '../kernel/errors.js';
import type { AnyOperation, OpContext } from '../platform/operation.js';
import { noAudit } from './admin-audit.js';
import type { OperationSetup } from './operation-setup.js';
import { deviceTokensFromCookie, refreshTokenFromCookie, setDeviceCookie, wantsCookieTransport } from './session-cookie.js';

/** A request's validated input, its handler's context and the read-ahead it declared (not yet run). */
export type Prepared = { input: Parameters<AnyOperation['handler']>[0]; ctx: OpContext; reads: [string, Read][] };

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

/** The input as received: the query of a GET, the envelope's data of a POST, the refresh token from its cookie. */
function rawInput({ op }: OperationSetup, req: FastifyRequest): unknown {
  const raw = op.method === 'GET' ? (req.query ?? {}) : unwrapEnvelope(req.body);
  // Cookie transport: the web app's refresh token comes from its HttpOnly cookie, not the body.
  if (op.refreshTokenFromCookie && wantsCookieTransport(req) && (raw as { refreshToken?: unknown }).refreshToken === undefined) {
    const fromCookie = refreshTokenFromCookie(req);
    if (!fromCookie) throw new AppError('UNAUTHENTICATED', 'No session cookie; sign in again');
    return { ...(raw as object), refreshToken: fromCookie };
  }
  return raw;
}

function contextOf({ op, api, config, adminAudit }: OperationSetup, req: FastifyRequest, reply: FastifyReply): OpContext {
  const user = req.authUser;
  return {
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
}

/**
 * Issue 45: a key never sends the transaction PIN (its scopes stand in for it, and the PIN gate is passed for it), so
 * the input's `pin` is filled with a placeholder the gate never reads; one sent is ignored the same way.
 */
const withoutKeyPin = (raw: unknown) => ({ ...(raw as object), pin: '0000' });

/**
 * Issue 43: a payment confirmed with a passkey (X-Passkey-Assertion) sends no PIN; the input's `pin` is filled with a
 * placeholder the gate never reads, and the gate checks the assertion against the input as sent (passkeyPaymentOf).
 */
const PASSKEY_HEADER = 'x-passkey-assertion';
const passkeyPayments = new WeakMap<OpContext, { header: string; input: Record<string, unknown> }>();

/** The passkey assertion a request confirms its payment with, and its input as sent; undefined: the PIN confirms it. */
export const passkeyPaymentOf = (ctx: OpContext) => passkeyPayments.get(ctx);

function passkeyHeaderOf(s: OperationSetup, req: FastifyRequest): string | undefined {
  const h = req.headers[PASSKEY_HEADER];
  return s.op.gates?.pin && !req.authUser?.apiKey && typeof h === 'string' && h.length ? h : undefined;
}

/** Validates the input and builds the context and the read-ahead; throws AppError on bad input. */
export function prepare(s: OperationSetup, req: FastifyRequest, reply: FastifyReply): Prepared {
  const raw = rawInput(s, req);
  const nul = nulPath(raw);
  if (nul !== null)
    throw new AppError('VALIDATION_FAILED', `${nul}: text must not contain NUL characters`, {
      issues: [{ path: nul, message: 'text must not contain NUL characters' }],
    });
  const passkey = passkeyHeaderOf(s, req);
  const parsed = s.strictInput.safeParse((req.authUser?.apiKey && s.op.gates?.pin) || passkey ? withoutKeyPin(raw) : raw);
  if (!parsed.success) throw validationError(parsed.error);
  const input = parsed.data;
  if (s.adminAudit) s.adminAudit.callOf(req).input = input;
  const ctx = contextOf(s, req, reply);
  if (passkey) passkeyPayments.set(ctx, { header: passkey, input: raw as Record<string, unknown> });
  const reads = Object.entries(s.op.readAhead?.(input, ctx) ?? {});
  return { input, ctx, reads };
}

/** prepare, with an input's refusal returned rather than thrown (it is answered under the Idempotency-Key). */
export function preparedOrRefusal(s: OperationSetup, req: FastifyRequest, reply: FastifyReply): Prepared | AppError {
  try {
    return prepare(s, req, reply);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}
