import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { gatherer } from '../db/batches.js';
import { runChanges, type Part } from '../db/change-statements.js';
import { lagosDate } from '../kernel/clock.js';
import type { Logger } from '../lib/logger.js';
import { accountCode, outflowOf, type PostInput, type Posted, type WalletLimit } from './types.js';

/** A posting's user account entries as the one-statement posting checks them. */
export interface Leg {
  code: string;
  amount: bigint;
  outflow: bigint;
  limit?: WalletLimit;
}

export function legsOf(input: PostInput): Leg[] {
  const limitOf = new Map((input.limits ?? []).map((l) => [accountCode({ user: l.user, kind: 'wallet' }), l]));
  return input.entries
    .filter((e) => 'user' in e.account)
    .map((e) => {
      const code = accountCode(e.account);
      return { code, amount: e.amount, outflow: outflowOf(input.type, e), limit: limitOf.get(code) };
    });
}

/** What a one-statement posting (alone or in a batch) came to; `alone`: the batch could not decide it, post it alone. */
export type FastOutcome =
  | { outcome: 'posted'; posted: Posted }
  | { outcome: 'duplicate' | 'insufficient' | 'missing' | 'alone' }
  | { outcome: 'limit'; error: Error };

/** What the posting statement answers for a posting. */
export interface DecidedRow {
  n: number;
  funds: boolean;
  within: boolean;
  tx_id: string | null;
  balances: Record<string, string> | null;
  seen: Record<string, [string, string]> | null;
}

/**
 * The SET clause moving an account's outflow today by `outflow`: a new Lagos day starts from zero; a posting
 * dated before the day already on the row (a writer whose clock is behind, around midnight) leaves it alone, so
 * the row always equals the sum of its day's outflow entries (checked by ledger:verify).
 */
export const outflowSet = (outflow: SQL, today: string) =>
  sql`outflow_day = CASE WHEN ${outflow} = 0 OR outflow_day > ${today}::date THEN outflow_day ELSE ${today}::date END,
        outflow_today = CASE WHEN ${outflow} = 0 OR outflow_day > ${today}::date THEN outflow_today
                             WHEN outflow_day = ${today}::date THEN outflow_today + ${outflow} ELSE ${outflow} END`;

/** Today's outflow on an account row, clamped at zero (refunds of an earlier day net it below). */
export const usedOf = (row: SQL, today: string) =>
  sql`GREATEST(CASE WHEN ${row}.outflow_day = ${today}::date THEN ${row}.outflow_today ELSE 0 END, 0)`;

/**
 * A decided row as the posting's outcome. The same arithmetic as the statement, on the values it saw, names a
 * refusal. Order matters (finding 4): what the payer can know of itself (its daily outflow, its funds) answers before
 * a balance cap, which is about the payee, so a payer without the money learns nothing of the payee's balance.
 */
export function outcomeOf(input: PostInput, legs: Leg[], r: DecidedRow, answers: unknown[]): FastOutcome {
  if (r.tx_id) {
    const balances: Record<string, bigint> = {};
    for (const [code, b] of Object.entries(r.balances ?? {})) balances[code] = BigInt(b);
    return { outcome: 'posted', posted: { transactionId: r.tx_id, balances, answers: answers.slice(0, input.parts?.length ?? 0) } };
  }
  if (r.n !== legs.length) return { outcome: 'missing' };
  const seen = (code: string) => (r.seen?.[code] ?? ['0', '0']).map(BigInt);
  if (!r.within) {
    for (const u of legs) {
      const usedToday = seen(u.code)[1];
      if (u.limit?.dailyOutflow && usedToday + u.outflow > u.limit.dailyOutflow.max)
        return { outcome: 'limit', error: u.limit.dailyOutflow.refuse(usedToday) };
    }
  }
  if (!r.funds) return { outcome: 'insufficient' };
  if (!r.within) {
    for (const u of legs) {
      const balance = seen(u.code)[0];
      if (u.limit?.balance && balance + u.amount > u.limit.balance.max) return { outcome: 'limit', error: u.limit.balance.refuse(balance) };
    }
    throw new Error(`ledger: ${input.reference}: a limit refused the posting but none matched`);
  }
  return { outcome: 'duplicate' };
}

/**
 * A posting waiting for its batch, with everything its statement writes: its parts and its own request's claim mark,
 * taken in the caller's request scope when it was posted (the batch runs outside every caller's context, and its
 * postings are several requests').
 */
export interface Queued {
  input: PostInput;
  legs: Leg[];
  system: { id: string; amount: bigint }[];
  parts: Part[];
}

/**
 * Postings in batches (issue 31): concurrent one-statement postings gathered for at most `waitMs` or `max` of them
 * and decided by ONE statement in one transaction with each posting's parts, one commit for all. Each posting keeps
 * its own outcome: the statement checks each one on its own rows (a posting short of money, over a limit or with a
 * reused reference writes nothing, the others are made). The gatherer never puts two postings touching the same
 * user account (or with the same reference) in one batch, so each row moves at most once in the statement and each
 * posting is checked exactly as it would be alone; the batch locks all its rows in code order, like a single
 * posting, so batches and single postings cannot deadlock one another. If the transaction fails (a part's unique
 * violation, a balance that changed under the statement: ledger_retry), nothing of it was made and every posting of
 * the batch is answered `alone`: its caller posts it on its own, in its own context; the failure is logged once
 * (`log`, warn: the batch's size and the error's code and message). A batch of one is posted alone.
 */
export function postingBatcher(db: Db, opts: { max: number; waitMs: number; now: () => Date; log?: Pick<Logger, 'warn'> }) {
  return gatherer<Queued, FastOutcome>({
    max: opts.max,
    waitMs: opts.waitMs,
    keys: (q) => [...q.legs.map((l) => l.code), `ref:${q.input.reference}`],
    run: async (items) => {
      if (items.length < 2) return items.map(() => ({ outcome: 'alone' as const }));
      try {
        return await postBatch(db, items, opts.now());
      } catch (err) {
        opts.log?.warn({ batch: items.length, ...failureOf(err) }, 'ledger: a batch of postings failed; each is posted alone');
        return items.map(() => ({ outcome: 'alone' as const }));
      }
    },
  });
}

/**
 * What a failed batch logs of its error: the database's code and message (the error drizzle may wrap is the
 * driver's, its `cause`), never the statement or its parameters (the postings' accounts and amounts).
 */
function failureOf(err: unknown): { code?: string; error: string } {
  const e = (err instanceof Error && err.cause instanceof Error ? err.cause : err) as { code?: unknown; message?: unknown };
  return { ...(typeof e?.code === 'string' ? { code: e.code } : {}), error: String(e?.message ?? e).slice(0, 200) };
}

async function postBatch(db: Db, items: Queued[], now: Date): Promise<FastOutcome[]> {
  const today = lagosDate(now);
  const str = (v: bigint | null | undefined) => (v === null || v === undefined ? null : v.toString());
  const postings = items.map((q, i) => ({
    i,
    reference: q.input.reference,
    type: q.input.type,
    description: q.input.description,
    metadata: q.input.metadata ?? null,
    n: q.legs.length,
  }));
  const legs = items.flatMap((q, i) =>
    q.legs.map((l) => ({
      i,
      code: l.code,
      amount: str(l.amount),
      outflow: str(l.outflow),
      max_outflow: str(l.limit?.dailyOutflow?.max),
      max_balance: str(l.limit?.balance?.max),
    })),
  );
  const system = items.flatMap((q, i) => q.system.map((s) => ({ i, id: s.id, amount: str(s.amount) })));
  const used = usedOf(sql`l`, today);
  const change = await runChanges<DecidedRow & { i: number }>(
    db,
    { alias: 'posted', columns: sql`id bigint, balances jsonb` },
    (mark, tokens) => sql`WITH
          p AS (SELECT p.*, (${JSON.stringify(tokens)}::jsonb ->> p.i)::text AS token
                FROM jsonb_to_recordset(${JSON.stringify(postings)}::jsonb) AS p(i int, reference text, type text, description text, metadata jsonb, n int)),
          v AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(legs)}::jsonb)
                AS v(i int, code text, amount bigint, outflow bigint, max_outflow bigint, max_balance bigint)),
          s AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(system)}::jsonb) AS s(i int, id bigint, amount bigint)),
          ready AS (SELECT p.i FROM p JOIN (SELECT v.i, count(*) AS n FROM v JOIN accounts a ON a.code = v.code GROUP BY v.i) c
                    ON c.i = p.i AND c.n = p.n),
          locked AS (SELECT a.id, a.code, a.balance, a.allow_negative, a.outflow_day, a.outflow_today FROM accounts a
                     WHERE a.code IN (SELECT v.code FROM v JOIN ready ON ready.i = v.i) ORDER BY a.code FOR UPDATE),
          chk AS (SELECT p.i, count(l.id)::int AS n, COALESCE(bool_and(l.allow_negative OR l.balance + v.amount >= 0), true) AS funds,
                         COALESCE(bool_and((v.max_outflow IS NULL OR ${used} + v.outflow <= v.max_outflow)
                                       AND (v.max_balance IS NULL OR l.balance + v.amount <= v.max_balance)), true) AS within
                  FROM p LEFT JOIN (v JOIN locked l ON l.code = v.code) ON v.i = p.i GROUP BY p.i),
          t AS (INSERT INTO ledger_transactions (reference, type, description, metadata, created_at)
                SELECT p.reference, p.type, p.description, p.metadata, ${now}::timestamptz FROM p JOIN chk ON chk.i = p.i
                WHERE chk.n = p.n AND chk.funds AND chk.within ORDER BY p.i
                ON CONFLICT (reference) DO NOTHING RETURNING id, reference),
          ti AS (SELECT p.i, p.token, t.id FROM t JOIN p ON p.reference = t.reference),
          u AS (UPDATE accounts a SET balance = a.balance + v.amount, ${outflowSet(sql`v.outflow`, today)}
                FROM v JOIN ti ON ti.i = v.i WHERE a.code = v.code
                  AND (a.allow_negative OR a.balance + v.amount >= 0)
                  AND (v.max_outflow IS NULL OR ${usedOf(sql`a`, today)} + v.outflow <= v.max_outflow)
                  AND (v.max_balance IS NULL OR a.balance + v.amount <= v.max_balance)
                RETURNING a.id, a.code, a.balance, v.i, v.amount),
          g AS (SELECT CASE WHEN (SELECT count(*) FROM u) <> (SELECT count(*) FROM v JOIN ti ON ti.i = v.i) THEN ledger_retry() END AS retry),
          pm AS (SELECT ti.token, ti.id, (SELECT jsonb_object_agg(u.code, u.balance) FROM u WHERE u.i = ti.i) AS balances FROM ti),
          e AS (INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, created_at)
                SELECT ti.id, u.id, u.amount, u.balance, ${now}::timestamptz FROM ti JOIN u ON u.i = ti.i
                UNION ALL SELECT ti.id, s.id, s.amount, NULL::bigint, ${now}::timestamptz FROM ti JOIN s ON s.i = ti.i
                RETURNING 1)
          SELECT p.i, chk.n, chk.funds, chk.within, ti.id::text AS tx_id, (SELECT retry FROM g) AS retry, (SELECT ${mark(sql`pm`)}) AS made,
                 (SELECT json_object_agg(u.code, u.balance::text) FROM u WHERE u.i = p.i) AS balances,
                 CASE WHEN NOT chk.within THEN (SELECT json_object_agg(l.code, json_build_array(l.balance::text, (${used})::text))
                                                FROM locked l JOIN v ON v.code = l.code WHERE v.i = p.i) END AS seen
          FROM p JOIN chk ON chk.i = p.i LEFT JOIN ti ON ti.i = p.i ORDER BY p.i`,
    items.map((q) => q.parts),
  );
  if (change.rows.length !== items.length) throw new Error(`ledger: a batch of ${items.length} answered ${change.rows.length}`);
  // 'missing' (first money on an account): the caller makes the rows and posts it alone.
  return change.rows.map((r) => outcomeOf(items[r.i].input, items[r.i].legs, r, change.answers[r.i]));
}
