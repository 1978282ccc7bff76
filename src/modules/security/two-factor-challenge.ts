import type { AuthUser } from '../../kernel/actor.js';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { CodeSource } from './code-tries.js';
import type { TwoFactorDeps, TwoFactorFactor } from './two-factor-factor.js';
import { sendEmailCode, verifyChallenge } from './step-up-code.js';
import { requireReauth, requireStepUp, revokeGrant, verifyPasskey } from './step-up-grants.js';

/** Step-up: the e-mailed code, a challenge answered with a code or a passkey, its grant, and the registry's gates. */
export function createStepUpChallenge(deps: TwoFactorDeps, factor: TwoFactorFactor) {
  return {
    /** Always sends (step-up-code.ts); the answer says what this session may use. */
    sendEmailCode: (user: AuthUser, meta: { ip?: string } = {}) => sendEmailCode(deps, factor, user, meta),
    /** spec 4.3: the input is a TOTP code or an e-mailed step-up code (within emailStepUpAllowed); either yields a grant. */
    verifyChallenge: (user: AuthUser, code: string, meta: CodeSource = {}) => verifyChallenge(deps, factor, user, code, meta),
    /** Step-up with an operator's passkey (issue 30): a verified assertion yields the same grant as an authenticator code. */
    verifyPasskey: (user: AuthUser, assertion: AuthenticationResponseJSON) => verifyPasskey(deps, user, assertion),
    revokeGrant: (user: AuthUser, grantToken: string) => revokeGrant(deps, user, grantToken),
    /** The registry's gates.stepUp (docs/design.md §5): required only while TOTP is enrolled and confirmed. */
    stepUp: {
      require: (user: AuthUser, grantToken: string | undefined): Promise<void> => requireStepUp(factor, user, grantToken),
    },
    /** The registry's gates.reauth: credential changes need a recent grant, whether or not 2FA is on. */
    reauth: {
      require: (user: AuthUser, grantToken: string | undefined): Promise<void> => requireReauth(factor, user, grantToken),
    },
  };
}
