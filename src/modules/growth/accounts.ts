import { sql } from 'drizzle-orm';
import { one, type Executor, type Tx } from '../../db/client.js';
import { accountCode, type UserAccountKind } from '../../ledger/ledger.js';

/**
 * Reads a user account's balance under its row lock, so a "move the whole balance" posting computed from it
 * cannot race another one (the second waits, then sees the new balance). A missing account holds nothing.
 */
export async function lockedBalance(tx: Tx, userId: string, kind: UserAccountKind): Promise<bigint> {
  const r = await one<{ balance: string }>(
    tx,
    sql`SELECT balance::text AS balance FROM accounts WHERE code = ${accountCode({ user: userId, kind })} FOR UPDATE`,
  );
  return r ? BigInt(r.balance) : 0n;
}

/**
 * Domain events hand subscribers the emitter's executor; by contract (src/lib/events.ts) it is an open
 * transaction, which the ledger needs.
 */
export const asTx = (exec: Executor): Tx => exec as Tx;

export const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

/** Kobo times basis points, rounded down (the user never gets a fraction of a kobo more than owed). */
export const applyBps = (kobo: bigint, bp: bigint): bigint => (kobo * bp) / 10_000n;
