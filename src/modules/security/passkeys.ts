import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AuthUser } from '../../kernel/actor.js';
import type { PasskeyDeps } from './passkey-deps.js';
import { registerPasskey, registrationOptions } from './passkey-register.js';
import { hasPasskey, listPasskeys, removePasskey } from './passkey-list.js';
import { stepUpOptions, verifyAssertion } from './passkey-step-up.js';

export { MAX_PASSKEYS, PASSKEY_CHALLENGE_TTL_MS, type PasskeyDeps } from './passkey-deps.js';

export type PasskeyService = ReturnType<typeof createPasskeyService>;

/**
 * Operators' passkeys (issue 30), with SimpleWebAuthn: registration (attestation 'none': any authenticator; we keep
 * its public key, not its make), listing, deletion, and assertions for step-up. Challenges are kept server-side,
 * bound to the user and the session that asked, used once, and expire after PASSKEY_CHALLENGE_TTL_MS. Origin and
 * RP ID come from config (WEBAUTHN_ORIGIN / WEBAUTHN_RP_ID, else PUBLIC_URL's).
 */
export function createPasskeyService(deps: PasskeyDeps) {
  return {
    has: (userId: string) => hasPasskey(deps, userId),
    registrationOptions: (user: AuthUser) => registrationOptions(deps, user),
    register: (user: AuthUser, response: RegistrationResponseJSON, name: string | undefined) => registerPasskey(deps, user, response, name),
    list: (userId: string) => listPasskeys(deps, userId),
    remove: (userId: string, id: string) => removePasskey(deps, userId, id),
    /** Options for navigator.credentials.get(): a fresh challenge and the caller's passkeys. */
    stepUpOptions: (user: AuthUser) => stepUpOptions(deps, user),
    /** Verifies a step-up assertion (passkey-step-up.ts). */
    verifyAssertion: (user: AuthUser, response: AuthenticationResponseJSON) => verifyAssertion(deps, user, response),
  };
}
