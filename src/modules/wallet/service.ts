import { sql, type SQL } from 'drizzle-orm';
import { one } from '../../db/client.js';
import type { ReadReplica } from '../../db/replica.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { Clock } from '../../kernel/clock.js';
import { containsPattern, historyRange } from '../../kernel/days.js';
import { toNaira } from '../../kernel/money.js';
import { page } from '../../kernel/paging.js';
import { activityKindOf, activityParams } from './activity.js';

export type WalletService = ReturnType<typeof createWalletService>;

/** A wallet line as the statements below read it. */
export interface LineRow {
  id: string;
  seq: number;
  type: string;
  amount: string;
  balance_after: string;
  reference: string;
  description: string;
  created_ms: number;
  facts: Record<string, unknown> | null;
}

/**
 * The wallet's ledger lines with the facts an activity line is worded from (activity.ts), by the ledger type: one
 * ledger transaction carries both sides of a transfer, the receiving side reads as transfer_in. The purchase facts come
 * from the view vtu publishes (vtu_purchase_facts), the other sides' usernames from identity's table as a listed debt
 * (scripts/table-owners.allow.json): read as those modules' own statements they cost getWalletState 40 % of its rate
 * (five statements in a pipelined transaction instead of one; docs/decisions.md).
 */
const linesOf = (userId: string, where: SQL, order: SQL, limit: number, offset = 0) =>
  sql`SELECT e.id::text AS id, e.id AS seq, CASE WHEN t.type = 'transfer_out' AND e.amount > 0 THEN 'transfer_in' ELSE t.type END AS type,
        e.amount::text AS amount, e.balance_after::text AS balance_after, t.reference, t.description,
        floor(extract(epoch FROM e.created_at) * 1000)::bigint AS created_ms,
        CASE WHEN t.type IN ('vtu_purchase', 'vtu_refund') THEN
               (SELECT json_build_object('service', v.service, 'recipient', v.recipient) FROM vtu_purchase_facts v
                WHERE v.id = (t.metadata->>'transactionId')::uuid)
             WHEN t.type = 'transfer_out' THEN
               (SELECT json_build_object('username', u.username) FROM users u
                WHERE u.id = (t.metadata->>(CASE WHEN e.amount > 0 THEN 'from' ELSE 'to' END))::uuid)
             WHEN t.type = 'adjustment' THEN json_build_object('reason', t.metadata->>'reason')
        END AS facts
      FROM accounts a JOIN ledger_entries e ON e.account_id = a.id JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE a.code = ${`user:${userId}:wallet`} AND ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;

/** A line as getWalletState's log and listWalletActivity show it. */
export const lineOutput = (r: LineRow) => ({
  id: r.id,
  type: r.type,
  kind: activityKindOf(r.type),
  params: activityParams(r.facts),
  amount: toNaira(r.amount),
  balanceAfter: toNaira(r.balance_after),
  reference: r.reference,
  description: r.description,
  createdAt: new Date(Number(r.created_ms)).toISOString(),
});

/** Issue 43: a range of Lagos days and a search (reference, words of the line, the purchase's recipient or service). */
function historyWhere(f: { from?: string; to?: string; q?: string }, now: Date): SQL {
  const range = historyRange(f, now);
  const like = containsPattern(f.q);
  const conds: SQL[] = [sql`true`];
  if (range) conds.push(sql`e.created_at >= ${range.start} AND e.created_at < ${range.end}`);
  if (like)
    conds.push(sql`(t.reference ILIKE ${like} OR t.description ILIKE ${like} OR (t.type IN ('vtu_purchase', 'vtu_refund') AND EXISTS (
      SELECT 1 FROM vtu_purchase_facts v WHERE v.id = (t.metadata->>'transactionId')::uuid AND (v.recipient ILIKE ${like} OR v.service ILIKE ${like}))))`);
  return sql.join(conds, sql` AND `);
}

/** `replica`: the statement is a lag-tolerant read (src/db/replica.ts); debits check balances on the primary. */
export function createWalletService({ replica, clock }: { replica: ReadReplica; ledger: Ledger; clock: Clock }) {
  return {
    /**
     * getWalletState: balances and the wallet's ledger lines, newest first (docs/design.md §6, §12). Shown, never
     * used to decide a debit; the user's own writes show at once (the replica's read-your-own-writes rule).
     */
    async state(userId: string, limit = 50) {
      const db = replica.forUser(userId);
      // One statement (the most frequent read): balances, the wallet's last lines and the dedicated account, each as JSON.
      const r = (await one<{
        balances: Record<string, string> | null;
        log: LineRow[] | null;
        dva: { account_number: string; account_name: string; bank_name: string } | null;
      }>(
        db,
        sql`SELECT
              (SELECT json_object_agg(kind, balance::text) FROM accounts WHERE user_id = ${userId}) AS balances,
              (SELECT json_agg(l ORDER BY l.seq DESC) FROM (${linesOf(userId, sql`true`, sql`e.id DESC`, limit)}) l) AS log,
              (SELECT json_build_object('account_number', account_number, 'account_name', account_name, 'bank_name', bank_name)
                 FROM dedicated_accounts WHERE user_id = ${userId}) AS dva`,
      ))!;
      const balance = (kind: string) => BigInt(r.balances?.[kind] ?? '0');
      const dva = r.dva;
      return {
        balance: toNaira(balance('wallet')),
        dedicatedAccount: dva ? { accountNumber: dva.account_number, accountName: dva.account_name, bankName: dva.bank_name } : null,
        lockedBonus: toNaira(balance('bonus_locked')),
        referralLockedBonus: toNaira(balance('referral_locked')),
        log: (r.log ?? []).map(lineOutput),
      };
    },

    /** listWalletActivity (issue 43): the wallet's lines, newest first, a page at a time, within a range and a search. */
    async activity(userId: string, f: { from?: string; to?: string; q?: string; limit: number; offset: number }) {
      const where = historyWhere(f, clock.now());
      const r = await one<{ log: LineRow[] | null }>(
        replica.forUser(userId),
        sql`SELECT (SELECT json_agg(l ORDER BY l.seq DESC) FROM (${linesOf(userId, where, sql`e.id DESC`, f.limit + 1, f.offset)}) l) AS log`,
      );
      return page((r?.log ?? []).map(lineOutput), f.limit, f.offset);
    },

    /**
     * A statement's money (issue 43), in ONE statement so it reads one snapshot whatever posts meanwhile: the opening
     * balance is the sum of the wallet's entries before `start` (the ledger's balance then: a balance is the sum of its
     * entries, ledger:verify), the lines those from `start` to before `end` in time order, at most `max` + 1 of them.
     */
    async statementLines(userId: string, start: Date, end: Date, max: number) {
      const code = `user:${userId}:wallet`;
      const r = (await one<{ opening: string; lines: LineRow[] | null }>(
        replica.forUser(userId),
        sql`SELECT (SELECT COALESCE(sum(e.amount), 0)::text FROM accounts a JOIN ledger_entries e ON e.account_id = a.id
                    WHERE a.code = ${code} AND e.created_at < ${start}) AS opening,
                   (SELECT json_agg(l ORDER BY l.created_ms, l.seq) FROM (${linesOf(
                     userId,
                     sql`e.created_at >= ${start} AND e.created_at < ${end}`,
                     sql`e.created_at, e.id`,
                     max + 1,
                   )}) l) AS lines`,
      ))!;
      return { opening: BigInt(r.opening), lines: r.lines ?? [] };
    },
  };
}
