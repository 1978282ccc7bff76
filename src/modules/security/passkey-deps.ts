import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import type { CredentialNotices } from './credential-notices.js';

/** A WebAuthn challenge is good for this long after its options were handed out, and once. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * MINUTE;
/** Passkeys one operator may hold. */
export const MAX_PASSKEYS = 10;

/**
 * The WebAuthn library, loaded at the first passkey operation: only operators use passkeys, and loaded at start it
 * kept about 5 MB of heap in every process (docs/scaling.md, "Memory").
 */
export const webauthnLib = () => import('@simplewebauthn/server');

/** What the passkey use cases (passkey-register.ts, passkey-list.ts, passkey-step-up.ts) use. */
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
    sql`SELECT id, credential_id, public_key, counter::text AS counter, transports FROM operator_passkeys
        WHERE user_id = ${userId} ORDER BY created_at`,
  );
}

/** A stored passkey as the WebAuthn options name it. */
export const toCredential = (p: PasskeyRow) => ({ id: p.credential_id, transports: p.transports });
