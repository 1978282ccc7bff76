import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { sql } from 'drizzle-orm';
import { isUniqueViolation, one } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import { AppError } from '../../kernel/errors.js';
import { uuid } from '../../kernel/ids.js';
import {
  MAX_PASSKEYS,
  PASSKEY_CHALLENGE_TTL_MS,
  passkeysOf,
  refused,
  toCredential,
  webauthnLib,
  type PasskeyDeps,
  type PasskeyKind,
} from './passkey-deps.js';
import { consumeChallenge, storeChallenge } from './passkey-challenges.js';
import { stepUpRequired } from './first-credential.js';

/** What the authenticator is asked for, by whom the passkey is for (PasskeyKind). */
const SELECTION = {
  operator: { residentKey: 'preferred', userVerification: 'preferred' },
  customer: { residentKey: 'required', userVerification: 'required', authenticatorAttachment: 'platform' },
} as const;

/** Options for navigator.credentials.create(): a fresh challenge, the caller's passkeys excluded. */
export async function registrationOptions(deps: PasskeyDeps, user: AuthUser, kind: PasskeyKind = 'operator') {
  const { db, webauthn } = deps;
  const existing = await passkeysOf(db, user.id);
  if (existing.length >= MAX_PASSKEYS) throw new AppError('CONFLICT', `At most ${MAX_PASSKEYS} passkeys; delete one first`);
  const { generateRegistrationOptions } = await webauthnLib();
  const options = await generateRegistrationOptions({
    rpName: webauthn.rpName,
    rpID: webauthn.rpId,
    userName: user.email,
    userID: Buffer.from(user.id.replace(/-/g, ''), 'hex'),
    attestationType: 'none',
    excludeCredentials: existing.map(toCredential),
    authenticatorSelection: SELECTION[kind],
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  });
  await storeChallenge(deps, user, 'register', options.challenge);
  return options;
}

/**
 * Registers the passkey a registration response carries (at most MAX_PASSKEYS; with `onlyFirst`, only while the
 * caller has none), with its notice. A customer's must have verified the person (fingerprint, face or the lock).
 */
export async function registerPasskey(
  deps: PasskeyDeps,
  user: AuthUser,
  response: RegistrationResponseJSON,
  name: string | undefined,
  opts: { kind?: PasskeyKind; onlyFirst?: boolean } = {},
) {
  const limit = opts.onlyFirst ? 1 : MAX_PASSKEYS;
  const { db, clock, webauthn, notices } = deps;
  const expectedChallenge = await consumeChallenge(deps, user, 'register', response.response.clientDataJSON);
  let info;
  try {
    const { verifyRegistrationResponse } = await webauthnLib();
    const v = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: webauthn.origin,
      expectedRPID: webauthn.rpId,
      requireUserVerification: opts.kind === 'customer',
    });
    if (!v.verified) throw new Error('the attestation did not verify');
    info = v.registrationInfo;
  } catch (err) {
    throw refused(`The passkey could not be registered: ${(err as Error).message}`);
  }
  const now = clock.now();
  const id = uuid();
  const label = name ?? `Passkey ${now.toISOString().slice(0, 10)}`;
  try {
    const created = await db.transaction(async (tx) => {
      const row = await one(
        tx,
        sql`INSERT INTO passkeys (id, user_id, credential_id, public_key, counter, transports, name, created_at)
          SELECT ${id}, ${user.id}, ${info.credential.id}, ${Buffer.from(info.credential.publicKey).toString('base64url')},
                 ${info.credential.counter}, ${JSON.stringify(info.credential.transports ?? [])}::jsonb, ${label}, ${now}
          WHERE (SELECT count(*) FROM passkeys WHERE user_id = ${user.id}) < ${limit}
          RETURNING 1`,
      );
      if (row) await notices.notify(tx, user.id, 'passkey_added', `Its name: ${label}.`);
      return row;
    });
    if (!created) throw opts.onlyFirst ? stepUpRequired() : new AppError('CONFLICT', `At most ${MAX_PASSKEYS} passkeys; delete one first`);
  } catch (err) {
    if (isUniqueViolation(err, 'passkeys_credential_key')) throw new AppError('CONFLICT', 'This passkey is already registered');
    throw err;
  }
  return { id, name: label, createdAt: now.toISOString() };
}
