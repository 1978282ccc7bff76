import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import type { ReadReplica } from '../../db/replica.js';
import type { Ledger } from '../../ledger/ledger.js';
import { toNaira } from '../../kernel/money.js';
import { activityKindOf, activityParams } from './activity.js';

export type WalletService = ReturnType<typeof createWalletService>;

/** `replica`: the statement is a lag-tolerant read (src/db/replica.ts); debits check balances on the primary. */
export function createWalletService({ replica }: { replica: ReadReplica; ledger: Ledger }) {
  return {
    /**
     * getWalletState: balances and the wallet's ledger lines, newest first (docs/design.md §6, §12). Shown, never
     * used to decide a debit; the user's own writes show at once (the replica's read-your-own-writes rule).
     */
    async state(userId: string, limit = 50) {
      const db = replica.forUser(userId);
      // One statement (the most frequent read): balances, the wallet's last lines and the dedicated account, each as
      // JSON. One ledger transaction carries both sides of a transfer; the receiving side reads as transfer_in. The
      // lines' purchase facts come from the view vtu publishes (vtu_purchase_facts), the other sides' usernames from
      // identity's table as a listed debt (scripts/table-owners.allow.json): read as those modules' own statements they
      // cost this read 40 % of its rate (five statements in a pipelined transaction instead of one; docs/decisions.md).
      type Line = {
        id: string;
        seq: number;
        type: string;
        amount: string;
        balance_after: string;
        reference: string;
        description: string;
        created_ms: number;
        facts: Record<string, unknown> | null;
      };
      const r = (await one<{
        balances: Record<string, string> | null;
        log: Line[] | null;
        dva: { account_number: string; account_name: string; bank_name: string } | null;
      }>(
        db,
        sql`SELECT
              (SELECT json_object_agg(kind, balance::text) FROM accounts WHERE user_id = ${userId}) AS balances,
              (SELECT json_agg(l ORDER BY l.seq DESC) FROM (
                 SELECT e.id::text AS id, e.id AS seq, CASE WHEN t.type = 'transfer_out' AND e.amount > 0 THEN 'transfer_in' ELSE t.type END AS type,
                        e.amount::text AS amount, e.balance_after::text AS balance_after, t.reference, t.description,
                        floor(extract(epoch FROM e.created_at) * 1000)::bigint AS created_ms,
                        -- The facts an activity line is worded from (activity.ts), by the ledger type.
                        CASE WHEN t.type IN ('vtu_purchase', 'vtu_refund') THEN
                               (SELECT json_build_object('service', v.service, 'recipient', v.recipient) FROM vtu_purchase_facts v
                                WHERE v.id = (t.metadata->>'transactionId')::uuid)
                             WHEN t.type = 'transfer_out' THEN
                               (SELECT json_build_object('username', u.username) FROM users u
                                WHERE u.id = (t.metadata->>(CASE WHEN e.amount > 0 THEN 'from' ELSE 'to' END))::uuid)
                             WHEN t.type = 'adjustment' THEN json_build_object('reason', t.metadata->>'reason')
                        END AS facts
                 FROM accounts a JOIN ledger_entries e ON e.account_id = a.id JOIN ledger_transactions t ON t.id = e.transaction_id
                 WHERE a.code = ${`user:${userId}:wallet`} ORDER BY e.id DESC LIMIT ${limit}) l) AS log,
              (SELECT json_build_object('account_number', account_number, 'account_name', account_name, 'bank_name', bank_name)
                 FROM dedicated_accounts WHERE user_id = ${userId}) AS dva`,
      ))!;
      const balance = (kind: string) => BigInt(r.balances?.[kind] ?? '0');
      const b = { wallet: balance('wallet'), bonus_locked: balance('bonus_locked'), referral_locked: balance('referral_locked') };
      const log = (r.log ?? []).map((l) => ({ ...l, created_at: new Date(Number(l.created_ms)) }));
      const dva = r.dva;
      return {
        balance: toNaira(b.wallet),
        dedicatedAccount: dva ? { accountNumber: dva.account_number, accountName: dva.account_name, bankName: dva.bank_name } : null,
        lockedBonus: toNaira(b.bonus_locked),
        referralLockedBonus: toNaira(b.referral_locked),
        log: log.map((r) => ({
          id: r.id,
          type: r.type,
          kind: activityKindOf(r.type),
          params: activityParams(r.facts),
          amount: toNaira(r.amount),
          balanceAfter: toNaira(r.balance_after),
          reference: r.reference,
          description: r.description,
          createdAt: new Date(r.created_at).toISOString(),
        })),
      };
    },
  };
}
