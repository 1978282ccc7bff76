/** Who is acting: the signed-in person (or operator) a request runs for. */
export interface AuthUser {
  id: string;
  email: string;
  username: string | null;
  role: 'user' | 'admin';
  /** Our own session id; null for tokens of an external OIDC provider. */
  sessionId: string | null;
  kycTier: number;
  /** Whether a confirmed authenticator guards step-up; undefined when not known (external tokens): ask the database. */
  twoFactor?: boolean;
}
