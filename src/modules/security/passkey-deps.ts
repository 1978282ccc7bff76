import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import type { CredentialNotices } from './credential-notices.js';

/** A WebAuthn challenge is good for this long after its options were handed out, and once. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * MINUTE;
/** Passkeys one person may hold. */
export const MAX_PASSKEYS = 10;

/**
 * The WebAuthn library, loaded at the first passkey operation: loaded at start it kept about 5 MB of heap in every
 * process, also one that never sees a passkey (docs/scaling.md, "Memory").
 */
export const webauthnLib = () => import('@simplewebauthn/server');

/** What the passkey use cases (passkey-register.ts, passkey-list.ts, passkey-step-up.ts, passkey-sign-in.ts) use. */
export interface PasskeyDeps {
  db: Db;
  clock: Clock;
  webauthn: { rpId: string; rpName: string; origin: string };
  /** Each passkey added or removed e-mails the owner with a "this wasn't me" link (credential-notices.ts). */
  notices: CredentialNotices;
}

export type PasskeyRow = { id: string; credential_id: string; public_key: string; counter: string; transports: string[] };

/** A refused passkey response (PASSKEY_INVALID). */
export const refused = (why: string) => new AppError('PASSKEY_INVALID', why);

/** The user's passkeys, oldest first. */
export async function passkeysOf(db: Db, userId: string) {
  return rows<PasskeyRow>(
    db,
    sql`SELECT id, credential_id, public_key, counter::text AS counter, transports FROM passkeys
        WHERE user_id = ${userId} ORDER BY created_at`,
  );
}

/**
 * Who a passkey is made for: an operator's is a second factor on any authenticator (a security key too); a
 * customer's is the phone's own (platform) authenticator with user verification (fingerprint, face or the phone's
 * lock), discoverable so that it signs in without an address, and it signs in and pays only with that verification.
 */
export type PasskeyKind = 'operator' | 'customer';

/** A stored passkey as the WebAuthn options name it. */
export const toCredential = (p: PasskeyRow) => ({ id: p.credential_id, transports: p.transports });
