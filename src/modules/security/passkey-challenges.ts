import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import { PASSKEY_CHALLENGE_TTL_MS, refused, type PasskeyDeps } from './passkey-deps.js';

/**
 * What a challenge is for: registering a passkey, an operator's step-up, a passwordless sign-in (nobody's yet), or
 * one payment (bound to its request).
 */
export type Purpose = 'register' | 'stepup' | 'signin' | 'payment';

/** Whose challenge it is: the signed-in user's session, or nobody yet (a sign-in). */
type Holder = Pick<AuthUser, 'id' | 'sessionId'> | null;

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
 * Keeps a challenge handed out to the user's session, or to nobody yet for a sign-in (and drops expired ones: the
 * user's, or the sign-in challenges nobody answered). `binding` ties a payment's challenge to its one request.
 */
export async function storeChallenge(
  { db, clock }: PasskeyDeps,
  user: Holder,
  purpose: Purpose,
  challenge: string,
  binding: string | null = null,
) {
  const now = clock.now();
  await db.execute(
    user
      ? sql`DELETE FROM webauthn_challenges WHERE user_id = ${user.id} AND expires_at <= ${now}`
      : sql`DELETE FROM webauthn_challenges WHERE user_id IS NULL AND expires_at <= ${now}`,
  );
  await db.execute(sql`INSERT INTO webauthn_challenges (challenge, user_id, session_id, purpose, binding, created_at, expires_at)
                       VALUES (${challenge}, ${user?.id ?? null}, ${user?.sessionId ?? null}, ${purpose}, ${binding}, ${now},
                               ${new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS)})`);
}

/**
 * Takes the challenge the response answers (one use, whatever the outcome); refuses unknown and expired ones, one of
 * another session, and a payment's whose binding is not this request's.
 */
export async function consumeChallenge(
  { db, clock }: PasskeyDeps,
  user: Holder,
  purpose: Purpose,
  clientDataJSON: string,
  binding: string | null = null,
): Promise<string> {
  const challenge = challengeOf(clientDataJSON);
  const row = await one<{ session_id: string | null; binding: string | null; expires_at: Date }>(
    db,
    user
      ? sql`DELETE FROM webauthn_challenges WHERE challenge = ${challenge} AND user_id = ${user.id} AND purpose = ${purpose}
            RETURNING session_id, binding, expires_at`
      : sql`DELETE FROM webauthn_challenges WHERE challenge = ${challenge} AND user_id IS NULL AND purpose = ${purpose}
            RETURNING session_id, binding, expires_at`,
  );
  if (!row || (row.session_id ?? null) !== (user?.sessionId ?? null))
    throw refused('This passkey response answers no challenge of this session (or one already used); ask for new options');
  if ((row.binding ?? null) !== binding) throw refused('This passkey confirmation was given for another request; confirm this one');
  if (new Date(row.expires_at).getTime() <= clock.now().getTime()) throw refused('The passkey challenge has expired; ask for new options');
  return challenge;
}
