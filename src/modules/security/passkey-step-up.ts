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
import { consumeChallenge, storeChallenge } from './passkey-challenges.js';

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

/**
 * Verifies a step-up assertion: a challenge of this session, one of the caller's passkeys, its signature, origin
 * and RP ID, and a signature counter above the stored one (a counter that does not grow is a replay or a cloned
 * authenticator; authenticators that keep no counter send 0 every time and are accepted). The counter moves
 * under a condition, so two concurrent uses of one assertion yield one grant.
 */
export async function verifyAssertion(deps: PasskeyDeps, user: AuthUser, response: AuthenticationResponseJSON): Promise<void> {
  const { db, clock, webauthn } = deps;
  const expectedChallenge = await consumeChallenge(deps, user, 'stepup', response.response.clientDataJSON);
  const p = await one<PasskeyRow>(
    db,
    sql`SELECT id, credential_id, public_key, counter::text AS counter, transports FROM operator_passkeys
        WHERE credential_id = ${response.id} AND user_id = ${user.id}`,
  );
  if (!p) throw refused('This passkey is not registered to your account');
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
      requireUserVerification: false,
    });
    if (!v.verified) throw new Error('the signature did not verify');
    newCounter = v.authenticationInfo.newCounter;
  } catch (err) {
    throw refused(`The passkey did not confirm: ${(err as Error).message}`);
  }
  const moved = await one(
    db,
    sql`UPDATE operator_passkeys SET counter = ${newCounter}, last_used_at = ${clock.now()}
        WHERE id = ${p.id} AND counter = ${p.counter}::bigint RETURNING 1`,
  );
  if (!moved) throw refused('The passkey response was already used');
}
