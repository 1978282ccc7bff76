import type { AuthUser } from '../../kernel/actor.js';
import { createCodeTries } from './code-tries.js';
import { acceptTotp, factorOf } from './authenticator.js';
import { emailStepUpAllowed, grantValid, passkeyOn } from './second-factor-checks.js';
import type { FactorRow, TwoFactorDeps } from './two-factor-deps.js';

export { GRANT_TTL_MS, type FactorRow, type TwoFactorDeps } from './two-factor-deps.js';

/**
 * The second factor as the use cases read it: the authenticator (a due reset finished on the way; authenticator.ts),
 * an operator's passkey, step-up grants (second-factor-checks.ts), and a code accepted once.
 */
export function createTwoFactorFactor(deps: TwoFactorDeps) {
  const codeTries = createCodeTries(deps);
  return {
    codeTries,
    /** The factor, after finishing a reset whose waiting period is over. */
    factorOf: (userId: string) => factorOf(deps, userId),
    isEnrolled: async (userId: string): Promise<boolean> => Boolean((await factorOf(deps, userId))?.confirmed_at),
    passkeyOn: (user: AuthUser) => passkeyOn(deps, user),
    /** A grant is valid for the user and the session it was issued to, until it expires or is revoked. */
    grantValid: (user: AuthUser, grantToken: string | undefined) => grantValid(deps, user, grantToken),
    /** Accepts the code once (authenticator.ts). */
    acceptTotp: (userId: string, f: FactorRow, code: string, confirm: boolean, key: string) =>
      acceptTotp(deps, codeTries, userId, f, code, confirm, key),
    /** Whether an e-mailed step-up code may confirm this session (second-factor-checks.ts). */
    emailStepUpAllowed: (user: AuthUser, f: FactorRow | undefined) => emailStepUpAllowed(deps, user, f),
  };
}

export type TwoFactorFactor = ReturnType<typeof createTwoFactorFactor>;
