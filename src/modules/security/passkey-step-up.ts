import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import { AppError } from '../../kernel/errors.js';
import {
  PASSKEY_CHALLENGE_TTL_MS,
  passkeysOf,
  refused,
  toCredential,
  webauthnLib,
  type PasskeyDeps,
  type PasskeyRow,
} from './passkey-deps.js';
import { consumeChallenge, storeChallenge, type Purpose } from './passkey-challenges.js';

/** Options for navigator.credentials.get(): a fresh challenge and the caller's passkeys. */
export async function stepUpOptions(deps: PasskeyDeps, user: AuthUser) {
  const existing = await passkeysOf(deps.db, user.id);
  if (!existing.length) throw new AppError('CONFLICT', 'No passkey is registered; register one first (adminPasskeyRegisterOptions)');
  const { generateAuthenticationOptions } = await webauthnLib();
  const options = await generateAuthenticationOptions({
    rpID: deps.webauthn.rpId,
    allowCredentials: existing.map(toCredential),
    userVerification: 'preferred',
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  });
  await storeChallenge(deps, user, 'stepup', options.challenge);
  return options;
}

/** What an assertion must answer: whose challenge (nobody's for a sign-in), its purpose and binding, and whether the person was verified. */
export interface AssertionCheck {
  user: AuthUser | null;
  purpose: Purpose;
  binding?: string | null;
  requireUserVerification?: boolean;
}

/**
 * Verifies an assertion: a challenge of this session (or a sign-in's), one of the caller's passkeys (any registered
 * one for a sign-in), its signature, origin and RP ID, and a signature counter above the stored one (a counter that
 * does not grow is a replay or a cloned authenticator; authenticators that keep no counter send 0 every time and are
 * accepted). The counter moves under a condition, so two concurrent uses of one assertion pass once. Answers the
 * passkey's owner.
 */
export async function checkAssertion(deps: PasskeyDeps, check: AssertionCheck, response: AuthenticationResponseJSON): Promise<string> {
  const { db, clock, webauthn } = deps;
  const { user } = check;
  const expectedChallenge = await consumeChallenge(deps, user, check.purpose, response.response.clientDataJSON, check.binding ?? null);
  const p = await one<PasskeyRow & { user_id: string }>(
    db,
    user
      ? sql`SELECT id, user_id, credential_id, public_key, counter::text AS counter, transports FROM passkeys
            WHERE credential_id = ${response.id} AND user_id = ${user.id}`
      : sql`SELECT id, user_id, credential_id, public_key, counter::text AS counter, transports FROM passkeys
            WHERE credential_id = ${response.id}`,
  );
  if (!p) throw refused(user ? 'This passkey is not registered to your account' : 'This passkey is not registered here');
  // A sign-in's passkey names its account (userHandle): it must be the account the passkey is registered to.
  const handle = response.response.userHandle;
  if (handle && handle !== Buffer.from(p.user_id.replace(/-/g, ''), 'hex').toString('base64url'))
    throw refused('This passkey belongs to another account');
  let newCounter: number;
  try {
    const { verifyAuthenticationResponse } = await webauthnLib();
    const v = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: webauthn.origin,
      expectedRPID: webauthn.rpId,
      credential: {
        id: p.credential_id,
        publicKey: Buffer.from(p.public_key, 'base64url'),
        counter: Number(p.counter),
        transports: p.transports,
      },
      requireUserVerification: check.requireUserVerification ?? false,
    });
    if (!v.verified) throw new Error('the signature did not verify');
    newCounter = v.authenticationInfo.newCounter;
  } catch (err) {
    throw refused(`The passkey did not confirm: ${(err as Error).message}`);
  }
  const moved = await one(
    db,
    sql`UPDATE passkeys SET counter = ${newCounter}, last_used_at = ${clock.now()}
        WHERE id = ${p.id} AND counter = ${p.counter}::bigint RETURNING 1`,
  );
  if (!moved) throw refused('The passkey response was already used');
  return p.user_id;
}

/** Verifies an operator's step-up assertion (checkAssertion). */
export async function verifyAssertion(deps: PasskeyDeps, user: AuthUser, response: AuthenticationResponseJSON): Promise<void> {
  await checkAssertion(deps, { user, purpose: 'stepup' }, response);
}
