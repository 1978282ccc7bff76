import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../db/client.js';
import type { Ledger } from '../../ledger/ledger.js';
import { toNaira } from '../../lib/money.js';

export type WalletService = ReturnType<typeof createWalletService>;

export function createWalletService({ db, ledger }: { db: Db; ledger: Ledger }) {
  return {
    /** getWalletState: balances and the wallet's ledger lines, newest first (DESIGN §6, §12). */
    async state(userId: string, limit = 50) {
      const b = await ledger.userBalances(db, userId);
      const log = await rows<{ id: string; type: string; amount: string; balance_after: string; reference: string; description: string; created_at: Date }>(
        db,
        // One ledger transaction carries both sides of a transfer; the receiving side reads as transfer_in.
        sql`SELECT e.id::text AS id, CASE WHEN t.type = 'transfer_out' AND e.amount > 0 THEN 'transfer_in' ELSE t.type END AS type, e.amount::text AS amount, e.balance_after::text AS balance_after, t.reference, t.description, e.created_at
            FROM accounts a JOIN ledger_entries e ON e.account_id = a.id JOIN ledger_transactions t ON t.id = e.transaction_id
            WHERE a.code = ${`user:${userId}:wallet`} ORDER BY e.id DESC LIMIT ${limit}`,
      );
      const dva = await one<{ account_number: string; account_name: string; bank_name: string }>(
        db,
        sql`SELECT account_number, account_name, bank_name FROM dedicated_accounts WHERE user_id = ${userId}`,
      );
      return {
        balance: toNaira(b.wallet),
        dedicatedAccount: dva ? { accountNumber: dva.account_number, accountName: dva.account_name, bankName: dva.bank_name } : null,
        lockedBonus: toNaira(b.bonus_locked),
        referralLockedBonus: toNaira(b.referral_locked),
        log: log.map((r) => ({
          id: r.id,
          type: r.type,
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
