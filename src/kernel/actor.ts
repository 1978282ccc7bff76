/**
 * What an operator may do (issue #30, docs/security.md "Operator roles"): `admin` everything, `finance` money
 * (adjustments, reconciliation, floats, settlement, exports), `support` look-ups, KYC review, support threads and
 * broadcasts, never money. Each admin operation declares the roles it allows besides admin (registry `roles`).
 */
export const OPERATOR_ROLES = ['admin', 'finance', 'support'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Who is acting: the signed-in person (or operator) a request runs for. */
export interface AuthUser {
  id: string;
  email: string;
  username: string | null;
  /** 'admin' for an operator (any operator role), 'user' for a customer; the roles themselves are operatorRoles. */
  role: 'user' | 'admin';
  /** The operator roles held (operator_roles, plus admin for ADMIN_EMAILS); empty for customers. */
  operatorRoles: readonly OperatorRole[];
  /** Our own session id; null for tokens of an external OIDC provider. */
  sessionId: string | null;
  kycTier: number;
  /** Whether a confirmed authenticator guards step-up; undefined when not known (external tokens): ask the database. */
  twoFactor?: boolean;
  /** An operator froze the account (issue 30): money operations answer ACCOUNT_FROZEN; undefined when not known: ask the database. */
  frozen?: boolean;
  /** Set when the request authenticated with an API key instead of a session (issue 45, modules/developers). */
  apiKey?: ApiKeyActor;
}

/** The scopes an API key may hold (issue 45): reads, purchases, and money sent to someone else. */
export const API_SCOPES = ['read', 'purchase', 'transfer'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** The API key a request runs under: its scopes stand in for the transaction PIN. */
export interface ApiKeyActor {
  id: string;
  mode: 'test' | 'live';
  scopes: readonly ApiScope[];
  /** The key's daily spend limit in kobo, or null for none beyond the wallet's own limits. */
  dailyLimit: bigint | null;
}

/** Whether an operator holding `held` may run an operation that allows `allowed` besides admin. */
export function mayRun(held: readonly OperatorRole[], allowed: readonly OperatorRole[]): boolean {
  return held.includes('admin') || held.some((r) => allowed.includes(r));
}
