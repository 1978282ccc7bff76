import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import { PASSKEY_CHALLENGE_TTL_MS, refused, type PasskeyDeps } from './passkey-deps.js';

export type Purpose = 'register' | 'stepup';

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

/** Keeps a challenge handed out to the user's session (and drops the user's expired ones). */
export async function storeChallenge({ db, clock }: PasskeyDeps, user: AuthUser, purpose: Purpose, challenge: string) {
  const now = clock.now();
  await db.execute(sql`DELETE FROM webauthn_challenges WHERE user_id = ${user.id} AND expires_at <= ${now}`);
  await db.execute(sql`INSERT INTO webauthn_challenges (challenge, user_id, session_id, purpose, created_at, expires_at)
                       VALUES (${challenge}, ${user.id}, ${user.sessionId}, ${purpose}, ${now},
                               ${new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS)})`);
}

/** Takes the challenge the response answers (one use, whatever the outcome); refuses unknown and expired ones. */
export async function consumeChallenge(
  { db, clock }: PasskeyDeps,
  user: AuthUser,
  purpose: Purpose,
  clientDataJSON: string,
): Promise<string> {
  const challenge = challengeOf(clientDataJSON);
  const row = await one<{ session_id: string | null; expires_at: Date }>(
    db,
    sql`DELETE FROM webauthn_challenges WHERE challenge = ${challenge} AND user_id = ${user.id} AND purpose = ${purpose}
        RETURNING session_id, expires_at`,
  );
  if (!row || (row.session_id ?? null) !== (user.sessionId ?? null))
    throw refused('This passkey response answers no challenge of this session (or one already used); ask for new options');
  if (new Date(row.expires_at).getTime() <= clock.now().getTime()) throw refused('The passkey challenge has expired; ask for new options');
  return challenge;
}
