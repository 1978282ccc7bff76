import type { AuthUser } from '../../kernel/actor.js';
import type { LoginIdentifier, Meta, PinLoginDeps } from './pin-login-deps.js';
import { startPinLogin } from './pin-login-start.js';
import { disableLoginPin, loginPinStatus, setLoginPin } from './login-pin-settings.js';

export { IP_IDENTIFIER_MAX_FAILURES, ipKey, ipLimit, type LoginIdentifier, type Meta, type PinLoginDeps } from './pin-login-deps.js';

/** Sign-in with a login PIN, and the login PIN's own settings. */
export function createPinLogin(deps: PinLoginDeps) {
  return {
    /**
     * Decision (docs/decisions.md): the answer depends on the identifier's form only, never on an account: PIN login
     * is offered for every well-formed identifier, and startPinLogin answers an unknown one exactly like a wrong PIN.
     * Nothing is looked up, so neither the answer nor its time tells whether an account exists or has a login PIN.
     */
    resolveLoginIdentifier(id: LoginIdentifier) {
      return { identifierType: id.type, pinLoginAvailable: true };
    },
    /** Sign-in with a login PIN, each try reserved first (pin-login-start.ts). */
    startPinLogin: (id: LoginIdentifier, pin: string, meta: Meta & { deviceTokens?: readonly string[] }) =>
      startPinLogin(deps, id, pin, meta),
    loginPinStatus: (userId: string) => loginPinStatus(deps, userId),
    /** Needs a recent proof (login-pin-settings.ts); the owner is told. */
    setLoginPin: (user: AuthUser, pin: string, grantToken: string | undefined) => setLoginPin(deps, user, pin, grantToken),
    disableLoginPin: (user: AuthUser) => disableLoginPin(deps, user),
  };
}
