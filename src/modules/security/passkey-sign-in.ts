import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { AppError } from '../../kernel/errors.js';
import type { IdentityService, SessionView } from '../identity/api.js';
import { PASSKEY_CHALLENGE_TTL_MS, webauthnLib, type PasskeyDeps } from './passkey-deps.js';
import { storeChallenge } from './passkey-challenges.js';
import { checkAssertion } from './passkey-step-up.js';

/** What the passwordless sign-in uses beyond PasskeyDeps: the accounts, sessions and known devices. */
export interface PasskeySignInDeps extends PasskeyDeps {
  identity: Pick<IdentityService, 'getUser' | 'openSession' | 'devices'>;
}

/**
 * Options for navigator.credentials.get() with no account named: the phone offers the passkeys it holds for this site
 * (discoverable credentials), and the person is verified on it. The challenge belongs to nobody until it is answered.
 */
export async function signInOptions(deps: PasskeyDeps) {
  const { generateAuthenticationOptions } = await webauthnLib();
  const options = await generateAuthenticationOptions({
    rpID: deps.webauthn.rpId,
    userVerification: 'required',
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  });
  await storeChallenge(deps, null, 'signin', options.challenge);
  return options;
}

/**
 * Sign-in with a passkey (issue 43): the assertion names its passkey, whose owner is signed in. The phone verified the
 * person (fingerprint, face or its lock) and holds the key: two factors in one, so the session opens active with
 * two-factor on too, and the device is known from now on (docs/decisions.md, "A passkey is a sign-in's two factors").
 */
export async function signInWithPasskey(
  deps: PasskeySignInDeps,
  response: AuthenticationResponseJSON,
  meta: { ip?: string; userAgent?: string; deviceTokens?: readonly string[] },
): Promise<{ session: SessionView; deviceTokens: string[] }> {
  const { db, identity } = deps;
  const userId = await checkAssertion(deps, { user: null, purpose: 'signin', requireUserVerification: true }, response);
  const user = await identity.getUser(db, userId);
  if (!user || user.status !== 'active') throw new AppError('INVALID_CREDENTIALS', 'This account cannot sign in');
  const session = await identity.openSession(user, 'passkey', meta);
  return { session, deviceTokens: await identity.devices.remember(user.id, meta) };
}
