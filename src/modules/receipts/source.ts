import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';
import { receiptOf, type PurchaseReceipt } from '../vtu/api.js';

/**
 * Finds one of the caller's transactions from what a client has in hand: a ledger reference (what
 * getWalletState.log shows), a top-up intent reference, or a VTU transaction id or reference. The ledger is the
 * source of truth, so this works for every area that moves money; VTU details are added when the VTU table
 * is present. Only transactions with an entry on one of the caller's own accounts are found.
 */
export interface CallerTransaction {
  ledgerId: string;
  reference: string;
  type: string;
  description: string;
  createdAt: Date;
  /** Net effect on the caller's wallet in kobo (negative = money out); 0 when only other accounts moved. */
  walletAmount: bigint;
  vtu: VtuDetails | null;
}

/** The purchase's own details, read through the VTU module. */
export type VtuDetails = PurchaseReceipt;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let vtuTablePresent: boolean | null = null;
async function hasVtuTable(exec: Executor): Promise<boolean> {
  if (vtuTablePresent) return true;
  const r = await one<{ present: boolean }>(exec, sql`SELECT to_regclass('vtu_transactions') IS NOT NULL AS present`);
  vtuTablePresent = Boolean(r?.present);
  return vtuTablePresent;
}

async function vtuRow(exec: Executor, userId: string, by: { id?: string; reference?: string }): Promise<VtuDetails | null> {
  if (!(await hasVtuTable(exec))) return null;
  return receiptOf(exec, userId, by);
}

export async function findCallerTransaction(exec: Executor, userId: string, given: string): Promise<CallerTransaction | null> {
  let ref = given;
  // A VTU transaction id (uuid) names its purchase, whose ledger reference is the transaction's reference.
  if (UUID_RE.test(given)) {
    const v = await vtuRow(exec, userId, { id: given });
    if (v) ref = v.reference;
  }
  // Exact ledger reference first (unique index); otherwise the reference a client knows from another area (a
  // top-up intent's reference, a VTU transaction id) as recorded in the ledger metadata, searched among the
  // caller's own entries only. The earliest match is the original transaction, not a later refund.
  type Row = { id: string; reference: string; type: string; description: string; created_at: Date; wallet: string | null };
  const cols = sql`t.id::text AS id, t.reference, t.type, t.description, t.created_at,
      (SELECT SUM(e2.amount) FROM ledger_entries e2 JOIN accounts a2 ON a2.id = e2.account_id
        WHERE e2.transaction_id = t.id AND a2.code = ${`user:${userId}:wallet`})::text AS wallet`;
  const t =
    (await one<Row>(
      exec,
      sql`SELECT ${cols} FROM ledger_transactions t WHERE t.reference = ${ref}
            AND EXISTS (SELECT 1 FROM ledger_entries e JOIN accounts a ON a.id = e.account_id WHERE e.transaction_id = t.id AND a.user_id = ${userId})`,
    )) ??
    (await one<Row>(
      exec,
      sql`SELECT ${cols} FROM ledger_transactions t
          WHERE t.id IN (SELECT e.transaction_id FROM ledger_entries e JOIN accounts a ON a.id = e.account_id WHERE a.user_id = ${userId})
            AND (t.metadata->>'reference' = ${ref} OR t.metadata->>'transactionId' = ${ref})
          ORDER BY t.id ASC LIMIT 1`,
    ));
  if (!t) return null;
  const vtu = t.type === 'vtu_purchase' ? await vtuRow(exec, userId, { reference: t.reference }) : null;
  return {
    ledgerId: t.id,
    reference: t.reference,
    type: t.type,
    description: t.description,
    createdAt: new Date(t.created_at),
    walletAmount: BigInt(t.wallet ?? '0'),
    vtu,
  };
}
