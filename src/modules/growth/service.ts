import { randomInt } from 'node:crypto';

import { sql, type SQL } from 'drizzle-orm';

import { one, rows, type Db, type Executor, type Tx } from '../../db/client.js';

import { notFound } from '../../kernel/errors.js';
import { accountCode, type Ledger } from '../../ledger/ledger.js';

import { lagosDate, type Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';
import type { Change } from '../../platform/change.js';

import { prefixedId } from '../../kernel/ids.js';

import type { Logger } from '../../lib/logger.js';

import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';

import type { Notifier } from '../notifications/api.js';

import { asTx, iso, lockedBalance } from './accounts.js';

import type { GrowthSettings, GrowthSettingsStore } from './settings.js';

import { createCheckins } from './checkins.js';

export { checkinReward } from './checkins.js';

export type GrowthService = ReturnType<typeof createGrowthService>;

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

/** A delivered purchase as growth's job receives it ('vtu.succeeded'). */
export interface PurchaseEvent {
  userId: string;
  transactionId: string;
  amount: bigint;
  service: string;
}

export function createGrowthService(deps: {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  work: Work;
  notifier: Notifier;
  settings: GrowthSettingsStore;
  log: Logger;
}) {
  const { db, clock, ledger, work, notifier, settings } = deps;

  async function ensureCode(userId: string): Promise<string> {
    for (let attempt = 0; attempt < 6; attempt++) {
      const found = await one<{ code: string }>(db, sql`SELECT code FROM referral_codes WHERE user_id = ${userId}`);
      if (found) return found.code;
      // A collision on the code (or a parallel first call for the same user) inserts nothing; look again.
      await db.execute(
        sql`INSERT INTO referral_codes (user_id, code, created_at) VALUES (${userId}, ${newCode()}, ${clock.now()}) ON CONFLICT DO NOTHING`,
      );
    }
    throw new Error('referral code generation kept colliding');
  }

  async function totalSpent(exec: Executor, userId: string): Promise<bigint> {
    const r = await one<{ s: string }>(
      exec,
      sql`SELECT COALESCE(SUM(amount_kobo), 0)::text AS s FROM growth_purchases WHERE user_id = ${userId}`,
    );
    return BigInt(r?.s ?? '0');
  }

  /** Unlock rule: the referrer's own successful purchases reach referralUnlockSpend; then the whole locked balance moves. */
  async function unlockReferralIfEarned(tx: Tx, userId: string, s: GrowthSettings): Promise<void> {
    // Lock order everywhere: wallet, then the user's other accounts. One statement locks both, in that order (the
    // rows are locked as the sort emits them); a locked row reads at its latest committed version.
    const wallet = accountCode({ user: userId, kind: 'wallet' });
    const referral = accountCode({ user: userId, kind: 'referral_locked' });
    const lockedRows = await rows<{ code: string; balance: string }>(
      tx,
      sql`SELECT code, balance::text AS balance FROM accounts WHERE code IN (${wallet}, ${referral}) ORDER BY code = ${wallet} DESC FOR UPDATE`,
    );
    const locked = BigInt(lockedRows.find((r) => r.code === referral)?.balance ?? '0');
    if (locked <= 0n) return;
    if ((await totalSpent(tx, userId)) < toKobo(s.referralUnlockSpend)) return;
    const reference = prefixedId('rfu');
    await ledger.post(tx, {
      reference,
      type: 'referral_unlock',
      description: 'Referral bonus unlocked',
      entries: [
        { account: { user: userId, kind: 'referral_locked' }, amount: -locked },
        { account: { user: userId, kind: 'wallet' }, amount: locked },
      ],
    });
    await notifier.emit(tx, {
      userId,
      kind: 'general',
      title: 'Referral bonus unlocked',
      body: `${formatNaira(locked)} of referral bonus is now in your wallet.`,
      data: { event: 'referral_unlocked', amount: toNaira(locked) },
    });
    await work.change(tx).emit('wallet.credited', { userId, amount: locked, source: 'other', reference }).commit();
  }

  async function awardMilestones(tx: Tx, referrerId: string, s: GrowthSettings): Promise<void> {
    const c = await one<{ n: number }>(
      tx,
      sql`SELECT COUNT(*)::int AS n FROM referrals WHERE referrer_id = ${referrerId} AND status = 'rewarded'`,
    );
    const count = c?.n ?? 0;
    for (const m of [...s.milestones].sort((a, b) => a.threshold - b.threshold)) {
      if (m.threshold > count) break;
      const bonus = toKobo(m.bonus);
      const ins = await one(
        tx,
        sql`INSERT INTO referral_milestones (user_id, threshold, bonus_kobo, reached_at) VALUES (${referrerId}, ${m.threshold}, ${bonus}, ${clock.now()})
            ON CONFLICT DO NOTHING RETURNING threshold`,
      );
      if (!ins) continue;
      await ledger.post(tx, {
        reference: `rfm_${referrerId}_${m.threshold}`,
        type: 'referral_milestone',
        description: `Referral milestone: ${m.threshold} invitees`,
        entries: [
          { account: { user: referrerId, kind: 'referral_locked' }, amount: bonus },
          { account: { system: 'bonus_expense' }, amount: -bonus },
        ],
      });
      await notifier.emit(tx, {
        userId: referrerId,
        kind: 'general',
        title: 'Referral milestone reached',
        body: `${m.threshold} friends joined and bought through your code: ${formatNaira(bonus)} added to your referral bonus.`,
        data: { threshold: m.threshold, event: 'referral_milestone', amount: toNaira(bonus) },
      });
    }
  }

  /**
   * The first statement of a delivered purchase's bookkeeping: the purchase recorded, once (`gins`; with `recorded`
   * it already is, by recordPurchases), the buyer's pending referral (`gref`) and, without a referral, the buyer's
   * wallet and referral balance (`glk`), locked in unlockReferralIfEarned's order.
   */
  function firstCtes(e: PurchaseEvent, recorded: boolean): SQL {
    const wallet = accountCode({ user: e.userId, kind: 'wallet' });
    const referral = accountCode({ user: e.userId, kind: 'referral_locked' });
    const ins = recorded
      ? sql`gins AS (SELECT ${e.transactionId}::uuid AS transaction_id)`
      : sql`gins AS (INSERT INTO growth_purchases (transaction_id, user_id, amount_kobo, service, created_at)
              VALUES (${e.transactionId}::uuid, ${e.userId}::uuid, ${e.amount}::bigint, ${e.service}::text, ${clock.now()}::timestamptz)
              ON CONFLICT DO NOTHING RETURNING transaction_id)`;
    return sql`${ins},
      gref AS (SELECT referrer_id::text AS referrer_id FROM referrals WHERE invitee_id = ${e.userId}::uuid AND status = 'pending'),
      glk AS MATERIALIZED (SELECT code, balance FROM accounts WHERE code IN (${wallet}, ${referral})
               AND EXISTS (SELECT 1 FROM gins) AND NOT EXISTS (SELECT 1 FROM gref)
             ORDER BY code = ${wallet} DESC FOR UPDATE)`;
  }

  return {
    ensureCode,

    /**
     * 'user.created': who invited the new account, recorded by the sign-up's own statement. A code that is unknown,
     * the new account's own or a closed account's records nothing, so sign-up never fails on a typo.
     */
    recordReferral(change: Change, e: { userId: string; referralCode?: string }): void {
      if (!e.referralCode) return;
      const code = e.referralCode.trim().toUpperCase();
      change.write(
        (each) => sql`INSERT INTO referrals (invitee_id, referrer_id, code, created_at)
          SELECT ${e.userId}::uuid, c.user_id, ${code}::text, ${clock.now()}::timestamptz
          FROM ${each}, referral_codes c JOIN users u ON u.id = c.user_id
          WHERE c.code = ${code}::text AND u.status = 'active' AND c.user_id <> ${e.userId}::uuid
          ON CONFLICT (invitee_id) DO NOTHING`,
      );
    },

    /** 'account.closed': locked bonuses the user can no longer earn out are forfeited back to bonus_expense. */
    async onAccountClosed(exec: Executor, e: { userId: string }): Promise<void> {
      const tx = asTx(exec);
      for (const kind of ['bonus_locked', 'referral_locked'] as const) {
        const locked = await lockedBalance(tx, e.userId, kind);
        if (locked <= 0n) continue;
        await ledger.post(tx, {
          reference: prefixedId('bfo'),
          type: 'bonus_forfeited',
          description: 'Locked bonus forfeited on account closure',
          entries: [
            { account: { user: e.userId, kind }, amount: -locked },
            { account: { system: 'bonus_expense' }, amount: locked },
          ],
        });
      }
    },

    /**
     * Growth's job for many delivered purchases at once (register.ts): records them all in ONE statement (a purchase
     * recorded before is left as it is) and answers those whose buyer has something for the rest of onVtuSucceeded
     * to do: a pending referral to qualify, or a locked referral balance a purchase may unlock. Usually none has, and
     * the purchases' growth bookkeeping is that one statement.
     */
    async recordPurchases(list: readonly PurchaseEvent[]): Promise<PurchaseEvent[]> {
      if (!list.length) return [];
      const records = list.map((e) => ({
        transaction_id: e.transactionId,
        user_id: e.userId,
        amount: e.amount.toString(),
        service: e.service,
      }));
      const due = await rows<{ transaction_id: string }>(
        db,
        sql`WITH v AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS x(transaction_id uuid, user_id uuid, amount bigint, service text)),
            ins AS (INSERT INTO growth_purchases (transaction_id, user_id, amount_kobo, service, created_at)
                    SELECT transaction_id, user_id, amount, service, ${clock.now()}::timestamptz FROM v ON CONFLICT DO NOTHING)
            SELECT v.transaction_id::text AS transaction_id FROM v
            WHERE EXISTS (SELECT 1 FROM referrals r WHERE r.invitee_id = v.user_id AND r.status = 'pending')
               OR EXISTS (SELECT 1 FROM accounts a WHERE a.user_id = v.user_id AND a.kind = 'referral_locked' AND a.balance > 0)`,
      );
      const ids = new Set(due.map((r) => r.transaction_id));
      return list.filter((e) => ids.has(e.transactionId));
    },

    /**
     * 'vtu.succeeded': record the purchase once, qualify the buyer's referral, unlock bonuses the rule allows. With
     * `recorded` (recordPurchases did it) this is the rest, and safe to run again: the referral is qualified by a
     * guarded UPDATE and the unlock moves what is locked.
     */
    async onVtuSucceeded(exec: Executor, e: PurchaseEvent, opts: { recorded?: boolean } = {}): Promise<void> {
      const tx = asTx(exec);
      const now = clock.now();
      // One statement: record the purchase (once per transaction) and read the buyer's pending referral. Without one,
      // the same statement also takes unlockReferralIfEarned's locks (the buyer's wallet, then referral balance, in
      // that function's order) and reads the referral balance: usually nothing is locked up, and the purchase is done.
      // With a pending referral the referrer's rows are locked first, as before (the locks' order is unchanged).
      const referral = accountCode({ user: e.userId, kind: 'referral_locked' });
      const r = (await one<{ seen: boolean; referrer_id: string | null; referral_locked: string | null }>(
        tx,
        sql`WITH ${firstCtes(e, opts.recorded === true)}
            SELECT EXISTS (SELECT 1 FROM gins) AS seen, (SELECT referrer_id FROM gref) AS referrer_id,
                   (SELECT (max(balance) FILTER (WHERE code = ${referral}))::text FROM glk) AS referral_locked`,
      ))!;
      if (!r.seen) return;
      if (!r.referrer_id && BigInt(r.referral_locked ?? '0') <= 0n) return;
      const s = await settings.get(tx);
      if (e.amount >= toKobo(s.referralMinPurchase)) {
        if (r.referrer_id) {
          const referrerId = r.referrer_id;
          // Serialises one referrer's rewards so the daily cap holds under parallel purchases.
          await tx.execute(sql`SELECT 1 FROM referral_codes WHERE user_id = ${referrerId} FOR UPDATE`);
          await lockedBalance(tx, referrerId, 'wallet');
          const today = lagosDate(now);
          const paidToday = await one<{ n: number }>(
            tx,
            sql`SELECT COUNT(*)::int AS n FROM referrals WHERE referrer_id = ${referrerId} AND status = 'rewarded' AND qualified_day = ${today}::date`,
          );
          const rewarded = (paidToday?.n ?? 0) < s.referralDailyCap;
          const bonus = rewarded ? toKobo(s.referralBonus) : 0n;
          const upd = await one(
            tx,
            sql`UPDATE referrals SET status = ${rewarded ? 'rewarded' : 'capped'}, reward_kobo = ${bonus}, qualified_at = ${now}, qualified_day = ${today}::date
                WHERE invitee_id = ${e.userId} AND status = 'pending' RETURNING invitee_id`,
          );
          if (upd && rewarded) {
            if (bonus > 0n) {
              await ledger.post(tx, {
                reference: `rfb_${e.userId}`,
                type: 'referral_bonus',
                description: 'Referral bonus (locked)',
                entries: [
                  { account: { user: referrerId, kind: 'referral_locked' }, amount: bonus },
                  { account: { system: 'bonus_expense' }, amount: -bonus },
                ],
              });
            }
            await awardMilestones(tx, referrerId, s);
            await unlockReferralIfEarned(tx, referrerId, s);
          }
        }
      }
      await unlockReferralIfEarned(tx, e.userId, s);
    },

    async referralStatus(userId: string) {
      const code = await ensureCode(userId);
      const s = await settings.get();
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
      const balances = await ledger.userBalances(db, userId);
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
    },

    async pendingMilestones(userId: string) {
      const s = await settings.get();
      const list = await rows<{ threshold: number; bonus_kobo: string; reached_at: Date }>(
        db,
        sql`SELECT threshold, bonus_kobo::text AS bonus_kobo, reached_at FROM referral_milestones
            WHERE user_id = ${userId} AND acknowledged_at IS NULL ORDER BY threshold`,
      );
      const c = await one<{ n: number }>(
        db,
        sql`SELECT COUNT(*)::int AS n FROM referrals WHERE referrer_id = ${userId} AND status = 'rewarded'`,
      );
      const count = c?.n ?? 0;
      const next = [...s.milestones].sort((a, b) => a.threshold - b.threshold).find((m) => m.threshold > count);
      return {
        items: list.map((m) => ({ threshold: m.threshold, bonus: toNaira(m.bonus_kobo), reachedAt: iso(m.reached_at)! })),
        rewardedInvitees: count,
        next: next ? { threshold: next.threshold, bonus: next.bonus, remaining: next.threshold - count } : null,
      };
    },

    async ackMilestone(userId: string, threshold: number) {
      const now = clock.now();
      const upd = await one<{ acknowledged_at: Date }>(
        db,
        sql`UPDATE referral_milestones SET acknowledged_at = ${now} WHERE user_id = ${userId} AND threshold = ${threshold} AND acknowledged_at IS NULL
            RETURNING acknowledged_at`,
      );
      if (upd) return { threshold, acknowledgedAt: iso(upd.acknowledged_at)! };
      // Acknowledging twice is harmless (a retried tap); a milestone not reached is not found.
      const done = await one<{ acknowledged_at: Date }>(
        db,
        sql`SELECT acknowledged_at FROM referral_milestones WHERE user_id = ${userId} AND threshold = ${threshold}`,
      );
      if (!done) throw notFound('Milestone');
      return { threshold, acknowledgedAt: iso(done.acknowledged_at)! };
    },
    ...createCheckins({ db, clock, ledger, work, settings }),
  };
}
