import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { toKobo, toNaira } from '../../kernel/money.js';
import type { Ledger } from '../../ledger/ledger.js';
import { iso } from './accounts.js';
import { totalSpent } from './referral-rewards.js';
import type { GrowthSettingsStore } from './settings.js';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O or 1/I: codes are read aloud and typed
const CODE_LENGTH = 8;

function newCode(): string {
  let s = '';
  for (let i = 0; i < CODE_LENGTH; i++) s += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return s;
}

function maskEmail(email: string): string {
  const [local, domain] = email.split('@');
  return `${local.slice(0, 2)}***@${domain ?? ''}`;
}

/** The user's referral code, made on first use. */
export async function ensureCode(deps: { db: Db; clock: Clock }, userId: string): Promise<string> {
  for (let attempt = 0; attempt < 6; attempt++) {
    const found = await one<{ code: string }>(deps.db, sql`SELECT code FROM referral_codes WHERE user_id = ${userId}`);
    if (found) return found.code;
    // A collision on the code (or a parallel first call for the same user) inserts nothing; look again.
    await deps.db.execute(
      sql`INSERT INTO referral_codes (user_id, code, created_at) VALUES (${userId}, ${newCode()}, ${deps.clock.now()}) ON CONFLICT DO NOTHING`,
    );
  }
  throw new Error('referral code generation kept colliding');
}

/** getMyReferralStatus: the code, the invitees, the bonus earned and locked, and the unlock rule's progress. */
export async function getMyReferralStatus(deps: { db: Db; clock: Clock; ledger: Ledger; settings: GrowthSettingsStore }, userId: string) {
  const { db } = deps;
  const code = await ensureCode(deps, userId);
  const s = await deps.settings.get();
  const counts = await one<{ total: number; rewarded: number; capped: number; earned: string }>(
    db,
    sql`SELECT COUNT(*)::int AS total, COUNT(*) FILTER (WHERE status = 'rewarded')::int AS rewarded,
               COUNT(*) FILTER (WHERE status = 'capped')::int AS capped, COALESCE(SUM(reward_kobo), 0)::text AS earned
        FROM referrals WHERE referrer_id = ${userId}`,
  );
  const milestoneSum = await one<{ s: string }>(
    db,
    sql`SELECT COALESCE(SUM(bonus_kobo), 0)::text AS s FROM referral_milestones WHERE user_id = ${userId}`,
  );
  const recent = await rows<{ email: string; username: string | null; status: string; created_at: Date }>(
    db,
    sql`SELECT u.email, u.username, r.status, r.created_at FROM referrals r JOIN users u ON u.id = r.invitee_id
        WHERE r.referrer_id = ${userId} ORDER BY r.created_at DESC LIMIT 20`,
  );
  const balances = await deps.ledger.userBalances(db, userId);
  const spent = await totalSpent(db, userId);
  const required = toKobo(s.referralUnlockSpend);
  return {
    code,
    invitees: counts?.total ?? 0,
    qualifiedInvitees: (counts?.rewarded ?? 0) + (counts?.capped ?? 0),
    rewardedInvitees: counts?.rewarded ?? 0,
    lockedBonus: toNaira(balances.referral_locked),
    earnedBonus: toNaira(BigInt(counts?.earned ?? '0') + BigInt(milestoneSum?.s ?? '0')),
    bonusPerInvitee: s.referralBonus,
    unlock: { rule: 'own_purchases' as const, required: toNaira(required), spent: toNaira(spent), met: spent >= required },
    recentInvitees: recent.map((r) => ({
      name: r.username ? `@${r.username}` : maskEmail(r.email),
      status: r.status,
      joinedAt: iso(r.created_at)!,
    })),
  };
}
