import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';
import { lockUser } from '../identity/api.js';

/** docs/design.md §5: a claim without a heartbeat for 2 minutes lapses. */
export const CLAIM_LAPSE_MS = 2 * MINUTE;

export type SessionClaimService = ReturnType<typeof createSessionClaimService>;

function ownSession(user: AuthUser): string {
  if (!user.sessionId)
    throw new AppError('BAD_REQUEST', 'Single-device sessions need a session of this service (sign in with an e-mail code or PIN)');
  return user.sessionId;
}

export function createSessionClaimService({
  db,
  clock,
  identity,
}: {
  db: Db;
  clock: Clock;
  identity: { forgetUser(userId: string): void };
}) {
  return {
    /**
     * Last claim wins: every other active session of the user ends (SESSION_SUPERSEDED on its tokens,
     * refresh included). The user row lock orders concurrent claims, so exactly one of two racing
     * devices keeps its session. An operator's claim ends none (issue 44): the owner's phone and the office laptop
     * stay signed in side by side, each with its own idle limit and step-up grants, each listed and revocable.
     */
    async claim(user: AuthUser, deviceId: string, userAgent: string | undefined) {
      const sid = ownSession(user);
      const now = clock.now();
      const claimed = await db.transaction(async (tx) => {
        await lockUser(tx, user.id);
        const me = await one<{ status: string }>(tx, sql`SELECT status FROM sessions WHERE id = ${sid} FOR UPDATE`);
        if (me?.status === 'superseded') throw new AppError('SESSION_SUPERSEDED', 'This session was ended by a sign-in on another device');
        if (me?.status !== 'active') throw new AppError('UNAUTHENTICATED', 'This session has ended; sign in again');
        const ended =
          user.operatorRoles.length > 0
            ? []
            : await rows(
                tx,
                sql`UPDATE sessions SET status = 'superseded', revoked_reason = ${`superseded_by:${sid}`}
                    WHERE user_id = ${user.id} AND id <> ${sid} AND status = 'active' RETURNING id`,
              );
        await tx.execute(sql`UPDATE sessions SET device_id = ${deviceId}, claimed_at = ${now}, heartbeat_at = ${now},
                               user_agent = COALESCE(${userAgent ?? null}, user_agent)
                             WHERE id = ${sid}`);
        return { supersededOther: ended.length > 0, claimExpiresAt: new Date(now.getTime() + CLAIM_LAPSE_MS).toISOString() };
      });
      // The superseded sessions end on this instance at once (other instances hear it from the auth_changed trigger).
      if (claimed.supersededOther) identity.forgetUser(user.id);
      return claimed;
    },

    /** Keeps a live claim fresh. A lapsed claim is cleared and reported, so the client claims again. */
    async heartbeat(user: AuthUser, deviceId: string) {
      const sid = ownSession(user);
      const now = clock.now();
      const s = await one<{ device_id: string | null; claimed_at: Date | null; heartbeat_at: Date | null }>(
        db,
        sql`SELECT device_id, claimed_at, heartbeat_at FROM sessions WHERE id = ${sid}`,
      );
      if (!s?.claimed_at) return { claimed: false, lapsed: false };
      if (s.device_id !== deviceId) throw new AppError('CONFLICT', 'This session is claimed by another deviceId; call claimSession');
      const last = new Date(s.heartbeat_at ?? s.claimed_at).getTime();
      if (now.getTime() - last > CLAIM_LAPSE_MS) {
        await db.execute(sql`UPDATE sessions SET claimed_at = NULL, heartbeat_at = NULL WHERE id = ${sid}`);
        return { claimed: false, lapsed: true };
      }
      await db.execute(sql`UPDATE sessions SET heartbeat_at = ${now} WHERE id = ${sid}`);
      return { claimed: true, lapsed: false, claimExpiresAt: new Date(now.getTime() + CLAIM_LAPSE_MS).toISOString() };
    },

    async release(user: AuthUser) {
      const sid = ownSession(user);
      const r = await one(
        db,
        sql`UPDATE sessions SET claimed_at = NULL, heartbeat_at = NULL, device_id = NULL WHERE id = ${sid} AND claimed_at IS NOT NULL RETURNING 1`,
      );
      return { released: Boolean(r) };
    },
  };
}
