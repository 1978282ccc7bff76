import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db, type Executor, type Tx } from '../../db/client.js';
import { lagosDate, type Clock } from '../../kernel/clock.js';
import { prefixedId } from '../../kernel/ids.js';
import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';
import { accountCode } from '../../ledger/ledger.js';
import type { Work } from '../../platform/change.js';
import { asTx, lockedBalance } from './accounts.js';
import { awardMilestones } from './milestones.js';
import type { GrowthSettings, GrowthSettingsStore } from './settings.js';

/** A delivered purchase as growth's job receives it ('vtu.succeeded'). */
export interface PurchaseEvent {
  userId: string;
  transactionId: string;
  amount: bigint;
  service: string;
}

export interface RewardDeps {
  db: Db;
  clock: Clock;
  work: Work;
  settings: GrowthSettingsStore;
}

/** What the user's own successful purchases add up to (the unlock rule's spend). */
export async function totalSpent(exec: Executor, userId: string): Promise<bigint> {
  const r = await one<{ s: string }>(
    exec,
    sql`SELECT COALESCE(SUM(amount_kobo), 0)::text AS s FROM growth_purchases WHERE user_id = ${userId}`,
  );
  return BigInt(r?.s ?? '0');
}

/** Unlock rule: the referrer's own successful purchases reach referralUnlockSpend; then the whole locked balance moves. */
async function unlockReferralIfEarned(work: Work, tx: Tx, userId: string, s: GrowthSettings): Promise<void> {
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
  await work
    .change(tx)
    .post({
      reference,
      type: 'referral_unlock',
      description: 'Referral bonus unlocked',
      entries: [
        { account: { user: userId, kind: 'referral_locked' }, amount: -locked },
        { account: { user: userId, kind: 'wallet' }, amount: locked },
      ],
    })
    .notify({
      userId,
      kind: 'general',
      title: 'Referral bonus unlocked',
      body: `${formatNaira(locked)} of referral bonus is now in your wallet.`,
      data: { event: 'referral_unlocked', amount: toNaira(locked) },
    })
    .emit('wallet.credited', { userId, amount: locked, source: 'other', reference })
    .commit();
}

/**
 * The first statement of a delivered purchase's bookkeeping: the purchase recorded, once (`gins`; with `recorded`
 * it already is, by recordPurchases), the buyer's pending referral (`gref`) and, without a referral, the buyer's
 * wallet and referral balance (`glk`), locked in unlockReferralIfEarned's order.
 */
function firstCtes(clock: Clock, e: PurchaseEvent, recorded: boolean): SQL {
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

/**
 * Growth's job for many delivered purchases at once (register.ts): records them all in ONE statement (a purchase
 * recorded before is left as it is) and answers those whose buyer has something for the rest of onVtuSucceeded
 * to do: a pending referral to qualify, or a locked referral balance a purchase may unlock. Usually none has, and
 * the purchases' growth bookkeeping is that one statement.
 */
export async function recordPurchases(deps: { db: Db; clock: Clock }, list: readonly PurchaseEvent[]): Promise<PurchaseEvent[]> {
  if (!list.length) return [];
  const records = list.map((e) => ({
    transaction_id: e.transactionId,
    user_id: e.userId,
    amount: e.amount.toString(),
    service: e.service,
  }));
  const due = await rows<{ transaction_id: string }>(
    deps.db,
    sql`WITH v AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS x(transaction_id uuid, user_id uuid, amount bigint, service text)),
          ins AS (INSERT INTO growth_purchases (transaction_id, user_id, amount_kobo, service, created_at)
                  SELECT transaction_id, user_id, amount, service, ${deps.clock.now()}::timestamptz FROM v ON CONFLICT DO NOTHING)
          SELECT v.transaction_id::text AS transaction_id FROM v
          WHERE EXISTS (SELECT 1 FROM referrals r WHERE r.invitee_id = v.user_id AND r.status = 'pending')
             OR EXISTS (SELECT 1 FROM accounts a WHERE a.user_id = v.user_id AND a.kind = 'referral_locked' AND a.balance > 0)`,
  );
  const ids = new Set(due.map((r) => r.transaction_id));
  return list.filter((e) => ids.has(e.transactionId));
}

/** The referrer's reward for a qualifying purchase of their invitee, under the daily cap. */
async function rewardReferrer(deps: RewardDeps, tx: Tx, e: PurchaseEvent, referrerId: string, s: GrowthSettings): Promise<void> {
  const now = deps.clock.now();
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
  if (!upd || !rewarded) return;
  if (bonus > 0n) {
    await deps.work
      .change(tx)
      .post({
        reference: `rfb_${e.userId}`,
        type: 'referral_bonus',
        description: 'Referral bonus (locked)',
        entries: [
          { account: { user: referrerId, kind: 'referral_locked' }, amount: bonus },
          { account: { system: 'bonus_expense' }, amount: -bonus },
        ],
      })
      .commit();
  }
  await awardMilestones(deps, tx, referrerId, s);
  await unlockReferralIfEarned(deps.work, tx, referrerId, s);
}

/**
 * 'vtu.succeeded': record the purchase once, qualify the buyer's referral, unlock bonuses the rule allows. With
 * `recorded` (recordPurchases did it) this is the rest, and safe to run again: the referral is qualified by a
 * guarded UPDATE and the unlock moves what is locked.
 */
export async function onVtuSucceeded(deps: RewardDeps, exec: Executor, e: PurchaseEvent, opts: { recorded?: boolean } = {}): Promise<void> {
  const tx = asTx(exec);
  // One statement: record the purchase (once per transaction) and read the buyer's pending referral. Without one,
  // the same statement also takes unlockReferralIfEarned's locks (the buyer's wallet, then referral balance, in
  // that function's order) and reads the referral balance: usually nothing is locked up, and the purchase is done.
  // With a pending referral the referrer's rows are locked first, as before (the locks' order is unchanged).
  const referral = accountCode({ user: e.userId, kind: 'referral_locked' });
  const r = (await one<{ seen: boolean; referrer_id: string | null; referral_locked: string | null }>(
    tx,
    sql`WITH ${firstCtes(deps.clock, e, opts.recorded === true)}
        SELECT EXISTS (SELECT 1 FROM gins) AS seen, (SELECT referrer_id FROM gref) AS referrer_id,
               (SELECT (max(balance) FILTER (WHERE code = ${referral}))::text FROM glk) AS referral_locked`,
  ))!;
  if (!r.seen) return;
  if (!r.referrer_id && BigInt(r.referral_locked ?? '0') <= 0n) return;
  const s = await deps.settings.get(tx);
  if (e.amount >= toKobo(s.referralMinPurchase) && r.referrer_id) await rewardReferrer(deps, tx, e, r.referrer_id, s);
  await unlockReferralIfEarned(deps.work, tx, e.userId, s);
}
