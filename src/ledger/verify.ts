import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../db/client.js';
import { OUTFLOW_REFUND_TYPES, OUTFLOW_TYPES } from './ledger.js';

export interface Breach {
  invariant: string;
  detail: string;
}

export interface VerifyReport {
  checked: { invariant: string; count: number }[];
  breaches: Breach[];
}

/**
 * docs/design.md §6 invariants: balanced transactions, materialised balances equal their entries, no wallet below zero,
 * and each wallet's outflow counter equals its day's outflow entries.
 */
export async function verifyLedger(exec: Executor): Promise<VerifyReport> {
  const breaches: Breach[] = [];
  const checked: VerifyReport['checked'] = [];

  const txCount = await rows<{ n: string }>(exec, sql`SELECT count(*)::text AS n FROM ledger_transactions`);
  const unbalanced = await rows<{ reference: string; s: string }>(
    exec,
    sql`SELECT t.reference, COALESCE(SUM(e.amount), 0)::text AS s FROM ledger_transactions t
        LEFT JOIN ledger_entries e ON e.transaction_id = t.id
        GROUP BY t.id, t.reference HAVING COALESCE(SUM(e.amount), 0) <> 0 OR count(e.id) < 2`,
  );
  checked.push({ invariant: 'every ledger transaction has >= 2 entries summing to zero', count: Number(txCount[0].n) });
  for (const u of unbalanced) breaches.push({ invariant: 'balanced', detail: `${u.reference} sums to ${u.s}` });

  const accCount = await rows<{ n: string }>(exec, sql`SELECT count(*)::text AS n FROM accounts WHERE materialised`);
  const drift = await rows<{ code: string; balance: string; s: string }>(
    exec,
    sql`SELECT a.code, a.balance::text AS balance, COALESCE(SUM(e.amount), 0)::text AS s FROM accounts a
        LEFT JOIN ledger_entries e ON e.account_id = a.id WHERE a.materialised
        GROUP BY a.id, a.code, a.balance HAVING a.balance <> COALESCE(SUM(e.amount), 0)`,
  );
  checked.push({ invariant: 'each account balance equals the sum of its entries', count: Number(accCount[0].n) });
  for (const d of drift) breaches.push({ invariant: 'balance = sum(entries)', detail: `${d.code}: balance ${d.balance}, entries ${d.s}` });

  const negative = await rows<{ code: string; balance: string }>(
    exec,
    sql`SELECT code, balance::text AS balance FROM accounts WHERE materialised AND NOT allow_negative AND balance < 0`,
  );
  checked.push({ invariant: 'no user wallet below zero', count: Number(accCount[0].n) });
  for (const n of negative) breaches.push({ invariant: 'non-negative', detail: `${n.code} is ${n.balance}` });

  const afterDrift = await rows<{ id: string }>(
    exec,
    sql`SELECT id::text AS id FROM (
          SELECT e.id, e.balance_after, SUM(e.amount) OVER (PARTITION BY e.account_id ORDER BY e.id) AS running
          FROM ledger_entries e JOIN accounts a ON a.id = e.account_id WHERE a.materialised
        ) x WHERE balance_after IS DISTINCT FROM running LIMIT 10`,
  );
  checked.push({ invariant: 'each entry balance_after equals the running sum of its account', count: afterDrift.length });
  for (const a of afterDrift) breaches.push({ invariant: 'running balance', detail: `entry ${a.id}` });

  // The outflow counter on a wallet row equals the outflow entries of the Lagos day it is for (ledger.ts).
  const outflow = await rows<{ code: string; day: string; counter: string; s: string }>(
    exec,
    sql`SELECT a.code, a.outflow_day::text AS day, a.outflow_today::text AS counter, COALESCE(-SUM(e.amount) FILTER (WHERE t.id IS NOT NULL), 0)::text AS s
        FROM accounts a
        LEFT JOIN ledger_entries e ON e.account_id = a.id AND ((e.created_at AT TIME ZONE 'UTC') + interval '1 hour')::date = a.outflow_day
        LEFT JOIN ledger_transactions t ON t.id = e.transaction_id
          AND ((t.type IN ${OUTFLOW_TYPES} AND e.amount < 0) OR (t.type IN ${OUTFLOW_REFUND_TYPES} AND e.amount > 0))
        WHERE a.kind = 'wallet' AND a.outflow_day IS NOT NULL
        GROUP BY a.id, a.code, a.outflow_day, a.outflow_today
        HAVING a.outflow_today <> COALESCE(-SUM(e.amount) FILTER (WHERE t.id IS NOT NULL), 0)`,
  );
  const walletCount = await rows<{ n: string }>(
    exec,
    sql`SELECT count(*)::text AS n FROM accounts WHERE kind = 'wallet' AND outflow_day IS NOT NULL`,
  );
  checked.push({ invariant: "each wallet's outflow counter equals the outflow entries of its day", count: Number(walletCount[0].n) });
  for (const o of outflow) breaches.push({ invariant: 'outflow counter', detail: `${o.code}: ${o.counter} on ${o.day}, entries ${o.s}` });

  const total = await rows<{ s: string }>(exec, sql`SELECT COALESCE(SUM(amount), 0)::text AS s FROM ledger_entries`);
  checked.push({ invariant: 'all entries together sum to zero (money is neither created nor lost)', count: 1 });
  if (total[0].s !== '0') breaches.push({ invariant: 'global zero sum', detail: `all entries sum to ${total[0].s}` });

  return { checked, breaches };
}
