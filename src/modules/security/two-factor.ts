import { createTwoFactorFactor, type TwoFactorDeps } from './two-factor-factor.js';
import { createTwoFactorEnrollment } from './two-factor-enrollment.js';
import { createStepUpChallenge } from './two-factor-challenge.js';
import { createTwoFactorResets } from './two-factor-resets.js';

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
  };
}
