import type { ReadAnswers, Reads } from './reads.js';
import { z } from 'zod';
import type { ApiScope, AuthUser, OperatorRole } from '../kernel/actor.js';
import type { ErrorCode } from '../kernel/errors.js';
import type { ServiceName, Services } from './services.js';

/**
 * The operation registry (docs/design.md §3). One declaration per operation gives both path forms, validation,
 * gates, idempotency, rate limits, OpenAPI and the registry-walking tests. Handlers stay thin.
 */
export type HttpMethod = 'GET' | 'POST';
export type RateClass = 'default' | 'auth' | 'money' | 'strict';

export interface OpContext<A extends Reads = Reads, N extends ServiceName = ServiceName> {
  /** The caller; throws UNAUTHENTICATED when read on a public operation without a token. */
  readonly user: AuthUser;
  readonly optionalUser: AuthUser | null;
  /** What the operation's module declared it needs (`operationsOf(needs)`), and nothing else. */
  readonly api: Pick<Services, N>;
  readonly operation: string;
  readonly requestId: string;
  readonly ip: string;
  readonly userAgent: string | undefined;
  readonly grantToken: string | undefined;
  readonly idempotencyKey: string | undefined;
  /** Sets a response header (e.g. Cache-Control on catalogues). */
  setHeader(name: string, value: string): void;
  /** The tokens of the request's device cookie (issue #28, http/session-cookie.ts); empty without one. */
  readonly deviceTokens: readonly string[];
  /** After a successful sign-in: sets the device cookie to these tokens. */
  rememberDevice(tokens: readonly string[]): void;
  /** The answers of the operation's readAhead, typed by its reads (null: no row); empty without one. */
  readonly ahead: Partial<ReadAnswers<A>>;
  /** Enriches the audit row the registry writes for an admin call (docs/security.md "Audit"); no-op elsewhere. */
  readonly audit: AuditScope;
}

/** What a handler adds to its admin call's audit row (the registry writes the row itself, one per call). */
export interface AuditScope {
  /** An object the call acts on (`'user'`, id); called once per target. */
  target(type: string, id: string): void;
  /** The state before and after a change of settings or money (secrets removed like the input). */
  change(before: unknown, after: unknown): void;
}

export interface Gates {
  /** Transaction PIN (spec 5.4): the input's `pin` field is checked. */
  pin?: boolean;
  /** Minimum approved KYC tier (spec 5.8). */
  kycTier?: 1 | 2 | 3;
  /** Step-up grant (X-Grant-Token) when the user has 2FA enrolled (docs/design.md §5). */
  stepUp?: boolean;
  /**
   * Credential changes: a step-up grant (X-Grant-Token from verifyStepupChallenge, with an authenticator
   * or e-mailed code) always, whether or not 2FA is on: a stolen access token alone changes no credential.
   */
  reauth?: boolean;
  /**
   * Moves the caller's money (issue 30): a customer an operator froze gets 403 ACCOUNT_FROZEN before any other gate.
   * test/http/frozen-walk.test.ts proves every operation with a PIN gate or the money rate class declares it.
   */
  money?: boolean;
}

export interface OperationDef<
  I extends z.ZodObject<any> = z.ZodObject<any>,
  O extends z.ZodObject<any> = z.ZodObject<any>,
  A extends Reads = Reads,
  N extends ServiceName = ServiceName,
> {
  name: string;
  /** The services its handlers may use (set by the module's `operationsOf(needs)`). */
  needs: readonly N[];
  suffix: string;
  method: HttpMethod;
  purpose: string;
  /**
   * BearerAdmin operations only, and required there (checked at start, registerOperation): the operator roles
   * allowed BESIDES admin, who may run every one. `[]` admin only; outside them 403 FORBIDDEN (docs/security.md).
   */
  roles?: readonly OperatorRole[];
  /**
   * Admin operations whose handler waits on a provider or processor: the registry holds no transaction across the
   * wait; the call's audit row is written first (outcome `pending`) and completed after (http/admin-audit.ts).
   */
  upstream?: boolean;
  /**
   * BearerAdmin writes only: why this operation needs no step-up grant. Every admin POST declares a step-up gate
   * (`gates.stepUp` or `gates.reauth`) or this reason (at least 20 characters); the registry refuses to start
   * otherwise (adminDeclarationProblem), so a stolen operator token alone changes no authority (issue 41).
   */
  stepUpExempt?: string;
  /**
   * Changes who may do what or how money is checked (roles, second factors, four-eyes thresholds): every admin is
   * e-mailed at once, in the call's own transaction, with who did it and the before and after of its audit row.
   */
  announce?: boolean;
  input: I;
  output: O;
  /** Also served at /api/v1/<name>. */
  versioned?: boolean;
  gates?: Gates;
  /**
   * Reads the checks and the handler make (src/platform/reads.ts), each its own statement in the round trip of
   * the Idempotency-Key claim, before the precheck. The owners' read functions find the answers in the request's
   * scope by the reads' keys (and ctx.ahead holds them by name); the checks still run in their usual order.
   */
  readAhead?: (input: z.infer<I>, ctx: OpContext<Reads, N>) => A;
  /** Checks that must run before the gates (spec rule 5: network prefix before PIN and debit). */
  precheck?: (input: z.infer<I>, ctx: OpContext<A, N>) => Promise<void> | void;
  rateLimit?: RateClass;
  bodyLimit?: number;
  /** Seconds a client may cache a GET answer (catalogues). */
  cacheSeconds?: number;
  /** Error codes this operation can answer beyond the common ones, for OpenAPI. */
  errors?: ErrorCode[];
  /**
   * A call clients make on a timer, never a person's action (the session heartbeat, the token refresh): like a request
   * marked `X-Activity: background` it is refused on an idle operator session but does not move its idle clock
   * (issue 41, identity's operator-idle.ts).
   */
  background?: boolean;
  /**
   * What an API key needs to call this operation (issue 45, modules/developers): `read`, `purchase` or `transfer`, or
   * `session` for a person's session alone (credentials, keys, settings). Undeclared: a GET is `read`, anything else
   * `session`, so a write is closed to keys until its module opens it (scopeOf).
   */
  scope?: OperationScope;
  /**
   * A money operation whose input carries no `amount` (a plan's price, a batch of cards): what it will take from the
   * wallet, in naira, by the same prices as the handler. Asked only for an API key with a daily spend limit, which
   * reserves it before the money moves (issue 45, http/operation-key.ts); null: not known before (counted once made).
   */
  spend?: (input: z.infer<I>, ctx: OpContext<A, N>) => Promise<number | null>;
  /** Cookie transport: with `X-Session-Transport: cookie`, a missing refreshToken is read from the cookie. */
  refreshTokenFromCookie?: boolean;
  /** Cookie transport: this operation ends the session, so the refresh cookie is cleared. */
  endsSession?: boolean;
  /**
   * An admin operation that enrols (or lists) an operator's second factor: it runs under OPERATOR_2FA=required for
   * an operator who has none yet (every other admin operation answers 403 OPERATOR_2FA_REQUIRED to them).
   */
  enrolsOperatorFactor?: boolean;
  /**
   * Issue 43: runs on a session still waiting for its second factor (completeSignIn, signOut); every other
   * operation answers 403 SECOND_FACTOR_REQUIRED to such a session.
   */
  pendingSignIn?: boolean;
  /**
   * Issue 43: the answer is a file, in one of these content types, rather than JSON (a GET whose output is
   * `fileOutput`): its bytes with its content type and `Content-Disposition: attachment`; a refusal stays the JSON
   * error envelope.
   */
  download?: readonly string[];
  handler: (input: z.infer<I>, ctx: OpContext<A, N>) => Promise<z.input<O>>;
}

/** A download's output (`download`): the file's name, content type and bytes. */
export const fileOutput = z.object({
  fileName: z.string(),
  contentType: z.string(),
  body: z.custom<Uint8Array>((v) => v instanceof Uint8Array, "a file's bytes"),
});

export type AnyOperation = OperationDef<z.ZodObject<any>, z.ZodObject<any>>;

/**
 * A module's operation declarer: `const defineOperation = operationsOf(['kyc'])` at the top of its operations file.
 * The handlers, prechecks and reads it declares see `ctx.api` with exactly the named services.
 */
export function operationsOf<N extends ServiceName>(needs: readonly N[]) {
  return function defineOperation<I extends z.ZodObject<any>, O extends z.ZodObject<any>, A extends Reads = Reads>(
    def: Omit<OperationDef<I, O, A, N>, 'needs'>,
  ): AnyOperation {
    return { ...def, needs } as unknown as AnyOperation;
  };
}

export type AuthKind = 'public' | 'user' | 'admin';

export type OperationScope = ApiScope | 'session';

/**
 * The scope a key needs for an operation: its declaration, else `read` for a customer's GET and `session` for every
 * other write; operator and public operations are never a key's (`session`).
 */
export function scopeOf(op: { suffix: string; method: HttpMethod; scope?: OperationScope }): OperationScope {
  if (authOf(op) !== 'user') return 'session';
  return op.scope ?? (op.method === 'GET' ? 'read' : 'session');
}

/** Shortest reason a step-up exemption may give: a word or two explains nothing. */
export const STEP_UP_EXEMPT_MIN = 20;

/**
 * What is wrong with an operation's operator declarations, or null: an admin operation names its roles (none is open
 * by omission), and an admin write declares a step-up gate or a reasoned exemption (issue 41).
 */
export function adminDeclarationProblem(op: AnyOperation): string | null {
  const admin = authOf(op) === 'admin';
  if (admin !== Boolean(op.roles))
    return `${op.name}: ${admin ? 'a BearerAdmin operation must declare roles' : 'only BearerAdmin operations declare roles'}`;
  if (!admin && (op.stepUpExempt !== undefined || op.announce))
    return `${op.name}: only BearerAdmin operations declare stepUpExempt or announce`;
  if (!admin || op.method !== 'POST') return null;
  const gated = Boolean(op.gates?.stepUp || op.gates?.reauth);
  if (gated && op.stepUpExempt !== undefined) return `${op.name}: declares a step-up gate and an exemption from it`;
  if (!gated && (op.stepUpExempt?.trim().length ?? 0) < STEP_UP_EXEMPT_MIN)
    return `${op.name}: an admin write must declare gates.stepUp (or reauth), or stepUpExempt with its reason (${STEP_UP_EXEMPT_MIN}+ characters)`;
  return null;
}

export function authOf(op: { suffix: string }): AuthKind {
  if (op.suffix.startsWith('Public')) return 'public';
  if (op.suffix === 'BearerAdmin') return 'admin';
  return 'user';
}

export function serverFnPath(op: { name: string; suffix: string }): string {
  return `/_serverFn/${op.name}${op.suffix}`;
}

export function versionedPath(op: { name: string }): string {
  return `/api/v1/${op.name}`;
}
