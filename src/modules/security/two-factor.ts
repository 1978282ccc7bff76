import { createTwoFactorFactor, type TwoFactorDeps } from './two-factor-factor.js';
import { createTwoFactorEnrollment } from './two-factor-enrollment.js';
import { createStepUpChallenge } from './two-factor-challenge.js';
import { createTwoFactorResets } from './two-factor-resets.js';
import { completeSignIn } from './sign-in-second-step.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { CodeSource } from './code-tries.js';

export { GRANT_TTL_MS, type TwoFactorDeps } from './two-factor-factor.js';
export { CODE_LOCK_MS, CODE_MAX_ATTEMPTS } from './code-tries.js';
export { TWO_FACTOR_RESET_WAIT_MS } from './two-factor-removal.js';

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

/**
 * Two-factor authentication: the authenticator's setup (two-factor-enrollment.ts), step-up challenges and their
 * grants (two-factor-challenge.ts) and resets (two-factor-resets.ts), over one reading of the factor
 * (two-factor-factor.ts).
 */
export function createTwoFactorService(deps: TwoFactorDeps) {
  const factor = createTwoFactorFactor(deps);
  return {
    isEnrolled: factor.isEnrolled,
    grantValid: factor.grantValid,
    ...createTwoFactorEnrollment(deps, factor),
    ...createStepUpChallenge(deps, factor),
    ...createTwoFactorResets(deps, factor),
    /** Issue 43: the sign-in's second step on a device the account does not know (sign-in-second-step.ts). */
    completeSignIn: (user: AuthUser, code: string, meta: CodeSource) => completeSignIn(deps, factor, user, code, meta),
  };
}
