import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { sql } from 'drizzle-orm';
import { isUniqueViolation, one, rows, type Db } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import { uuid } from '../../kernel/ids.js';
import type { CredentialNotices } from './credential-notices.js';

/** A WebAuthn challenge is good for this long after its options were handed out, and once. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * MINUTE;
/** Passkeys one operator may hold. */
export const MAX_PASSKEYS = 10;

/**
 * The WebAuthn library, loaded at the first passkey operation: only operators use passkeys, and loaded at start it
 * kept about 5 MB of heap in every process (docs/scaling.md, "Memory").
 */
const webauthnLib = () => import('@simplewebauthn/server');

export interface PasskeyDeps {
  db: Db;
  clock: Clock;
  webauthn: { rpId: string; rpName: string; origin: string };
  /** Each passkey added or removed e-mails the owner with a "this wasn't me" link (credential-notices.ts). */
  notices: CredentialNotices;
}

type Purpose = 'register' | 'stepup';

type PasskeyRow = { id: string; credential_id: string; public_key: string; counter: string; transports: string[] };

export type PasskeyService = ReturnType<typeof createPasskeyService>;

const refused = (why: string) => new AppError('PASSKEY_INVALID', why);

/** The challenge the browser signed, read from the response's clientDataJSON (verified again by the library). */
function challengeOf(clientDataJSON: string): string {
  try {
    const c = (JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown }).challenge;
    if (typeof c === 'string' && c.length > 0 && c.length <= 200) return c;
  } catch {
    // falls through to the refusal
  }
  throw refused('clientDataJSON is not readable client data');
}

/**
 * Operators' passkeys (issue 30), with SimpleWebAuthn: registration (attestation 'none': any authenticator; we keep
 * its public key, not its make), listing, deletion, and assertions for step-up. Challenges are kept server-side,
 * bound to the user and the session that asked, used once, and expire after PASSKEY_CHALLENGE_TTL_MS. Origin and
 * RP ID come from config (WEBAUTHN_ORIGIN / WEBAUTHN_RP_ID, else PUBLIC_URL's).
 */
export function createPasskeyService({ db, clock, webauthn, notices }: PasskeyDeps) {
  async function storeChallenge(user: AuthUser, purpose: Purpose, challenge: string) {
    const now = clock.now();
    await db.execute(sql`DELETE FROM webauthn_challenges WHERE user_id = ${user.id} AND expires_at <= ${now}`);
    await db.execute(sql`INSERT INTO webauthn_challenges (challenge, user_id, session_id, purpose, created_at, expires_at)
                         VALUES (${challenge}, ${user.id}, ${user.sessionId}, ${purpose}, ${now},
                                 ${new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS)})`);
  }

  /** Takes the challenge the response answers (one use, whatever the outcome); refuses unknown and expired ones. */
  async function consumeChallenge(user: AuthUser, purpose: Purpose, clientDataJSON: string): Promise<string> {
    const challenge = challengeOf(clientDataJSON);
    const row = await one<{ session_id: string | null; expires_at: Date }>(
      db,
      sql`DELETE FROM webauthn_challenges WHERE challenge = ${challenge} AND user_id = ${user.id} AND purpose = ${purpose}
          RETURNING session_id, expires_at`,
    );
    if (!row || (row.session_id ?? null) !== (user.sessionId ?? null))
      throw refused('This passkey response answers no challenge of this session (or one already used); ask for new options');
    if (new Date(row.expires_at).getTime() <= clock.now().getTime())
      throw refused('The passkey challenge has expired; ask for new options');
    return challenge;
  }

  async function passkeysOf(userId: string) {
    return rows<PasskeyRow>(
      db,
      sql`SELECT id, credential_id, public_key, counter::text AS counter, transports FROM operator_passkeys
          WHERE user_id = ${userId} ORDER BY created_at`,
    );
  }

  const toCredential = (p: PasskeyRow) => ({ id: p.credential_id, transports: p.transports });

  return {
    async has(userId: string): Promise<boolean> {
      return Boolean(await one(db, sql`SELECT 1 FROM operator_passkeys WHERE user_id = ${userId} LIMIT 1`));
    },

    async registrationOptions(user: AuthUser) {
      const existing = await passkeysOf(user.id);
      if (existing.length >= MAX_PASSKEYS) throw new AppError('CONFLICT', `At most ${MAX_PASSKEYS} passkeys; delete one first`);
      const { generateRegistrationOptions } = await webauthnLib();
      const options = await generateRegistrationOptions({
        rpName: webauthn.rpName,
        rpID: webauthn.rpId,
        userName: user.email,
        userID: Buffer.from(user.id.replace(/-/g, ''), 'hex'),
        attestationType: 'none',
        excludeCredentials: existing.map(toCredential),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        timeout: PASSKEY_CHALLENGE_TTL_MS,
      });
      await storeChallenge(user, 'register', options.challenge);
      return options;
    },

    async register(user: AuthUser, response: RegistrationResponseJSON, name: string | undefined) {
      const expectedChallenge = await consumeChallenge(user, 'register', response.response.clientDataJSON);
      let info;
      try {
        const { verifyRegistrationResponse } = await webauthnLib();
        const v = await verifyRegistrationResponse({
          response,
          expectedChallenge,
          expectedOrigin: webauthn.origin,
          expectedRPID: webauthn.rpId,
          requireUserVerification: false,
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
            sql`INSERT INTO operator_passkeys (id, user_id, credential_id, public_key, counter, transports, name, created_at)
              SELECT ${id}, ${user.id}, ${info.credential.id}, ${Buffer.from(info.credential.publicKey).toString('base64url')},
                     ${info.credential.counter}, ${JSON.stringify(info.credential.transports ?? [])}::jsonb, ${label}, ${now}
              WHERE (SELECT count(*) FROM operator_passkeys WHERE user_id = ${user.id}) < ${MAX_PASSKEYS}
              RETURNING 1`,
          );
          if (row) await notices.notify(tx, user.id, 'passkey_added', `Its name: ${label}.`);
          return row;
        });
        if (!created) throw new AppError('CONFLICT', `At most ${MAX_PASSKEYS} passkeys; delete one first`);
      } catch (err) {
        if (isUniqueViolation(err, 'operator_passkeys_credential_key'))
          throw new AppError('CONFLICT', 'This passkey is already registered');
        throw err;
      }
      return { id, name: label, createdAt: now.toISOString() };
    },

    async list(userId: string) {
      const items = await rows<{ id: string; name: string; transports: string[]; created_at: Date; last_used_at: Date | null }>(
        db,
        sql`SELECT id, name, transports, created_at, last_used_at FROM operator_passkeys WHERE user_id = ${userId} ORDER BY created_at`,
      );
      return items.map((p) => ({
        id: p.id,
        name: p.name,
        transports: p.transports,
        createdAt: new Date(p.created_at).toISOString(),
        lastUsedAt: p.last_used_at ? new Date(p.last_used_at).toISOString() : null,
      }));
    },

    async remove(userId: string, id: string) {
      const removed = await db.transaction(async (tx) => {
        const r = await one<{ name: string }>(
          tx,
          sql`DELETE FROM operator_passkeys WHERE id = ${id} AND user_id = ${userId} RETURNING name`,
        );
        if (r) await notices.notify(tx, userId, 'passkey_removed', `Its name: ${r.name}.`);
        return r;
      });
      if (!removed) throw new AppError('NOT_FOUND', 'No such passkey');
      return { deleted: true };
    },

    /** Options for navigator.credentials.get(): a fresh challenge and the caller's passkeys. */
    async stepUpOptions(user: AuthUser) {
      const existing = await passkeysOf(user.id);
      if (!existing.length) throw new AppError('CONFLICT', 'No passkey is registered; register one first (adminPasskeyRegisterOptions)');
      const { generateAuthenticationOptions } = await webauthnLib();
      const options = await generateAuthenticationOptions({
        rpID: webauthn.rpId,
        allowCredentials: existing.map(toCredential),
        userVerification: 'preferred',
        timeout: PASSKEY_CHALLENGE_TTL_MS,
      });
      await storeChallenge(user, 'stepup', options.challenge);
      return options;
    },

    /**
     * Verifies a step-up assertion: a challenge of this session, one of the caller's passkeys, its signature, origin
     * and RP ID, and a signature counter above the stored one (a counter that does not grow is a replay or a cloned
     * authenticator; authenticators that keep no counter send 0 every time and are accepted). The counter moves
     * under a condition, so two concurrent uses of one assertion yield one grant.
     */
    async verifyAssertion(user: AuthUser, response: AuthenticationResponseJSON): Promise<void> {
      const expectedChallenge = await consumeChallenge(user, 'stepup', response.response.clientDataJSON);
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
    },
  };
}
