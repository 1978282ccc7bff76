import { sql } from 'drizzle-orm';
import { AppError } from '../http/errors.js';
import { one, rows, type Executor, type Tx } from '../db/client.js';
import type { Clock } from '../lib/clock.js';

/**
 * Account references. User accounts are materialised (balance updated under the user's row lock, never
 * negative unless the kind allows it); system accounts are append-only so they are never a hot row.
 */
export type UserAccountKind = 'wallet' | 'bonus_locked' | 'referral_locked' | 'savings' | 'loan';
export type SystemAccount =
  | 'collections' // money received from the payment processor
  | 'provider_float' // money prefunded to VTU providers
  | 'revenue' // markups and fees
  | 'adjustments' // operator corrections
  | 'bonus_expense' // referral, check-in bonuses paid
  | 'interest_expense' // savings interest paid
  | 'loan_book' // money lent
  | 'orders' // marketplace/subscription money held until fulfilment
  | 'unallocated'; // credits with no owner yet

export type AccountRef = { user: string; kind: UserAccountKind } | { system: SystemAccount | `${SystemAccount}:${string}` };

export interface Entry {
  account: AccountRef;
  /** Signed kobo: positive credits the account, negative debits it. */
  amount: bigint;
}

export interface PostInput {
  reference: string;
  type: string;
  description: string;
  entries: Entry[];
  metadata?: Record<string, unknown>;
}

export interface Posted {
  transactionId: string;
  /** Balance after, per user account code touched. */
  balances: Record<string, bigint>;
}

/** Loans can go negative for the user (they owe); everything else a user holds cannot. */
const NEGATIVE_ALLOWED: UserAccountKind[] = ['loan'];

export function accountCode(ref: AccountRef): string {
  return 'user' in ref ? `user:${ref.user}:${ref.kind}` : `system:${ref.system}`;
}

export interface Ledger {
  /** Posts balanced entries inside the caller's transaction; throws DUPLICATE_REFERENCE on a reused reference. */
  post(tx: Tx, input: PostInput): Promise<Posted>;
  /** Like post, but a reused reference returns null without aborting the transaction (exactly-once credits). */
  tryPost(tx: Tx, input: PostInput): Promise<Posted | null>;
  balance(exec: Executor, ref: AccountRef): Promise<bigint>;
  userBalances(exec: Executor, userId: string): Promise<Record<UserAccountKind, bigint>>;
}

export function createLedger({ clock }: { clock: Clock }): Ledger {
  async function ensureAccount(tx: Tx, ref: AccountRef): Promise<{ id: string; materialised: boolean }> {
    const code = accountCode(ref);
    const found = await one<{ id: string; materialised: boolean }>(tx, sql`SELECT id::text AS id, materialised FROM accounts WHERE code = ${code}`);
    if (found) return found;
    const isUser = 'user' in ref;
    const kind = isUser ? ref.kind : ref.system.split(':')[0];
    await tx.execute(sql`
      INSERT INTO accounts (code, kind, user_id, materialised, allow_negative, balance, created_at)
      VALUES (${code}, ${kind}, ${isUser ? ref.user : null}, ${isUser}, ${isUser ? NEGATIVE_ALLOWED.includes(ref.kind) : true}, 0, ${clock.now()})
      ON CONFLICT (code) DO NOTHING`);
    return (await one<{ id: string; materialised: boolean }>(tx, sql`SELECT id::text AS id, materialised FROM accounts WHERE code = ${code}`))!;
  }

  async function postInner(tx: Tx, input: PostInput, onDuplicate: 'throw' | 'null'): Promise<Posted | null> {
    if (input.entries.length < 2) throw new Error(`ledger: ${input.reference} needs at least two entries`);
    let sum = 0n;
    for (const e of input.entries) {
      if (typeof e.amount !== 'bigint') throw new Error('ledger: amounts are bigint kobo');
      if (e.amount === 0n) throw new Error(`ledger: ${input.reference} has a zero entry`);
      sum += e.amount;
    }
    if (sum !== 0n) throw new Error(`ledger: ${input.reference} is unbalanced by ${sum} kobo`);

    const now = clock.now();
    const inserted = await one<{ id: string }>(
      tx,
      sql`INSERT INTO ledger_transactions (reference, type, description, metadata, created_at)
          VALUES (${input.reference}, ${input.type}, ${input.description}, ${input.metadata ? JSON.stringify(input.metadata) : null}::jsonb, ${now})
          ON CONFLICT (reference) DO NOTHING RETURNING id::text AS id`,
    );
    if (!inserted) {
      if (onDuplicate === 'null') return null;
      throw new AppError('DUPLICATE_REFERENCE', `Ledger reference ${input.reference} was already posted`);
    }

    // Lock user rows in a stable order so two transfers between the same wallets cannot deadlock.
    const resolved = await Promise.all(input.entries.map(async (e) => ({ e, acc: await ensureAccount(tx, e.account) })));
    resolved.sort((a, b) => (BigInt(a.acc.id) < BigInt(b.acc.id) ? -1 : 1));
    const balances: Record<string, bigint> = {};
    for (const { e, acc } of resolved) {
      let balanceAfter: bigint | null = null;
      if (acc.materialised) {
        const r = await one<{ balance: string }>(
          tx,
          sql`UPDATE accounts SET balance = balance + ${e.amount}
              WHERE id = ${acc.id} AND (allow_negative OR balance + ${e.amount} >= 0)
              RETURNING balance::text AS balance`,
        );
        if (!r) throw new AppError('INSUFFICIENT_FUNDS', 'Wallet balance is too low for this transaction');
        balanceAfter = BigInt(r.balance);
        balances[accountCode(e.account)] = balanceAfter;
      }
      await tx.execute(sql`
        INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, created_at)
        VALUES (${inserted.id}, ${acc.id}, ${e.amount}, ${balanceAfter}, ${now})`);
    }
    return { transactionId: inserted.id, balances };
  }

  return {
    post: async (tx, input) => (await postInner(tx, input, 'throw'))!,
    tryPost: (tx, input) => postInner(tx, input, 'null'),
    async balance(exec, ref) {
      const code = accountCode(ref);
      if ('user' in ref) {
        const r = await one<{ balance: string }>(exec, sql`SELECT balance::text AS balance FROM accounts WHERE code = ${code}`);
        return r ? BigInt(r.balance) : 0n;
      }
      const r = await one<{ s: string | null }>(
        exec,
        sql`SELECT COALESCE(SUM(e.amount), 0)::text AS s FROM ledger_entries e JOIN accounts a ON a.id = e.account_id WHERE a.code = ${code}`,
      );
      return BigInt(r?.s ?? '0');
    },
    async userBalances(exec, userId) {
      const out: Record<UserAccountKind, bigint> = { wallet: 0n, bonus_locked: 0n, referral_locked: 0n, savings: 0n, loan: 0n };
      const list = await rows<{ kind: UserAccountKind; balance: string }>(
        exec,
        sql`SELECT kind, balance::text AS balance FROM accounts WHERE user_id = ${userId}`,
      );
      for (const r of list) out[r.kind] = BigInt(r.balance);
      return out;
    },
  };
}
