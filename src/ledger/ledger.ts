import { sql, type SQL } from 'drizzle-orm';
import { AppError } from '../kernel/errors.js';
import { one, pipelinesAlone, rows, type Db, type Executor, type Tx } from '../db/client.js';
import { runChange, runParts, type Part } from '../db/change-statements.js';
import { lagosDate, type Clock } from '../kernel/clock.js';
import type { Logger } from '../lib/logger.js';
import { requestClaim, type RequestClaim } from '../db/request-scope.js';
import { legsOf, outcomeOf, outflowSet, postingBatcher, usedOf, type DecidedRow, type FastOutcome, type Queued } from './batch.js';
import {
  accountCode,
  isRetrySignal,
  NEGATIVE_ALLOWED,
  outflowOf,
  type AccountRef,
  type Ledger,
  type PostInput,
  type Posted,
  type UserAccountKind,
} from './types.js';

// The ledger's types live in types.ts; importers keep using this module.
export * from './types.js';

/**
 * A posting's parts as its statement writes them: its own, then the mark of the Idempotency-Key claim it was asked
 * for under, so the claim is marked 'committed' exactly when the money moves. The parts' answers are read in this
 * order (outcomeOf keeps the posting's own).
 */
const partsOf = (input: PostInput, claim: RequestClaim | null): Part[] => [...(input.parts ?? []), ...(claim ? [claim.mark] : [])];

/** What one ledger keeps between postings: account ids, the accounts open transactions created, the batchers. */
interface LedgerState {
  clock: Clock;
  batch?: { max: number; waitMs: number };
  log?: Pick<Logger, 'warn'>;
  batchers: WeakMap<object, (q: Queued) => Promise<FastOutcome>>;
  /** Account ids never change once created: cached so a posting costs no look-up round trips. */
  ids: Map<string, string>;
  /**
   * Accounts each open transaction created: such a row may still roll back, so its id is cached only by a
   * transaction that found it already there. (No code opens nested transactions around a posting.)
   */
  createdIn: WeakMap<Executor, Set<string>>;
}

function batcherOf(L: LedgerState, db: Db) {
  const { batch } = L;
  if (!batch || batch.max < 2 || !pipelinesAlone(db)) return null;
  let b = L.batchers.get(db);
  if (!b) L.batchers.set(db, (b = postingBatcher(db, { ...batch, now: () => L.clock.now(), log: L.log })));
  return b;
}

/** With `db` (no transaction) a created row is committed at once, so its id is cached like any other. */
async function ensureAccount(L: LedgerState, tx: Executor, ref: AccountRef): Promise<string> {
  const code = accountCode(ref);
  const cached = L.ids.get(code);
  if (cached) return cached;
  const isUser = 'user' in ref;
  const kind = isUser ? ref.kind : ref.system.split(':')[0];
  const created = await one<{ id: string }>(
    tx,
    sql`INSERT INTO accounts (code, kind, user_id, materialised, allow_negative, balance, created_at)
        VALUES (${code}, ${kind}, ${isUser ? ref.user : null}, ${isUser}, ${isUser ? NEGATIVE_ALLOWED.includes(ref.kind) : true}, 0, ${L.clock.now()})
        ON CONFLICT (code) DO NOTHING RETURNING id::text AS id`,
  );
  if (created) {
    if (!('rollback' in tx)) {
      L.ids.set(code, created.id);
      return created.id;
    }
    let mine = L.createdIn.get(tx);
    if (!mine) L.createdIn.set(tx, (mine = new Set()));
    mine.add(code);
    return created.id;
  }
  const row = (await one<{ id: string }>(tx, sql`SELECT id::text AS id FROM accounts WHERE code = ${code}`))!;
  if (!L.createdIn.get(tx)?.has(code)) L.ids.set(code, row.id);
  return row.id;
}

/** Moves a user account's materialised balance; the conditional UPDATE is the non-negative check and the row lock. */
async function applyToUserAccount(
  L: LedgerState,
  tx: Tx,
  ref: AccountRef,
  amount: bigint,
  outflow: bigint,
  today: string,
): Promise<{ id: string; balance: bigint }> {
  const code = accountCode(ref);
  const update = () =>
    one<{ id: string; balance: string }>(
      tx,
      sql`UPDATE accounts SET balance = balance + ${amount}, ${outflowSet(sql`${outflow}::bigint`, today)}
          WHERE code = ${code} AND (allow_negative OR balance + ${amount} >= 0)
          RETURNING id::text AS id, balance::text AS balance`,
    );
  let r = await update();
  if (!r) {
    const exists = await one(tx, sql`SELECT 1 FROM accounts WHERE code = ${code}`);
    if (exists) throw new AppError('INSUFFICIENT_FUNDS', 'Wallet balance is too low for this transaction');
    await ensureAccount(L, tx, ref);
    r = await update();
    if (!r) throw new AppError('INSUFFICIENT_FUNDS', 'Wallet balance is too low for this transaction');
  }
  return { id: r.id, balance: BigInt(r.balance) };
}

/** A posting's own rules, before anything is written: two entries or more, bigint, none zero, balanced, limits on its accounts. */
function checkPosting(input: PostInput): void {
  if (input.entries.length < 2) throw new Error(`ledger: ${input.reference} needs at least two entries`);
  let sum = 0n;
  for (const e of input.entries) {
    if (typeof e.amount !== 'bigint') throw new Error('ledger: amounts are bigint kobo');
    if (e.amount === 0n) throw new Error(`ledger: ${input.reference} has a zero entry`);
    sum += e.amount;
  }
  if (sum !== 0n) throw new Error(`ledger: ${input.reference} is unbalanced by ${sum} kobo`);
  for (const l of input.limits ?? []) {
    const code = accountCode({ user: l.user, kind: 'wallet' });
    if (!input.entries.some((e) => accountCode(e.account) === code))
      throw new Error(`ledger: ${input.reference} limits ${code}, which it does not touch`);
  }
}

/** The one-statement posting's outcome as the caller gets it: the posting, null for a tolerated duplicate, or the error. */
function settled(fast: FastOutcome, input: PostInput, onDuplicate: 'throw' | 'null', userCodes: string[]): Posted | null {
  switch (fast.outcome) {
    case 'posted':
      return fast.posted;
    case 'duplicate':
      if (onDuplicate === 'null') return null;
      throw new AppError('DUPLICATE_REFERENCE', `Ledger reference ${input.reference} was already posted`);
    case 'limit':
      throw fast.error;
    case 'insufficient':
      throw new AppError('INSUFFICIENT_FUNDS', 'Wallet balance is too low for this transaction');
    case 'missing':
    case 'alone':
      throw new Error(`ledger: ${input.reference}: accounts ${userCodes.join(', ')} could not be created`);
  }
}

/** `alone`: exec is the database itself (postAlone), and a posting that needs more than one statement opens a transaction. */
async function postInner(
  L: LedgerState,
  tx: Executor,
  input: PostInput,
  onDuplicate: 'throw' | 'null',
  claim: RequestClaim | null,
  alone?: Db,
): Promise<Posted | null> {
  checkPosting(input);
  const now = L.clock.now();
  const userCodes = input.entries.filter((e) => 'user' in e.account).map((e) => accountCode(e.account));
  // The one-statement posting needs each user account once (an UPDATE touches a row once per statement).
  if (new Set(userCodes).size === userCodes.length) {
    const system: { id: string; amount: bigint }[] = [];
    for (const e of input.entries) if (!('user' in e.account)) system.push({ id: await ensureAccount(L, tx, e.account), amount: e.amount });
    const batched = alone && userCodes.length ? batcherOf(L, alone) : null;
    let fast: FastOutcome;
    if (batched) {
      // Each queued posting carries its own parts and its own claim's mark: a batch holds several requests' postings.
      fast = await batched({ input, legs: legsOf(input), system, parts: partsOf(input, claim) });
      if (fast.outcome === 'alone') fast = await postOnce(tx, input, claim, system, now, true);
    } else fast = await postOnce(tx, input, claim, system, now, Boolean(alone));
    if (fast.outcome === 'missing') {
      // First money on a user account: create the missing rows, then post.
      for (const e of input.entries) if ('user' in e.account) await ensureAccount(L, tx, e.account);
      fast = await postOnce(tx, input, claim, system, now, Boolean(alone));
    }
    return settled(fast, input, onDuplicate, userCodes);
  }
  if (input.limits?.length) throw new Error(`ledger: ${input.reference}: limits need a posting that touches each user account once`);
  if (alone) return alone.transaction((t) => postStepByStep(L, t, input, claim, now, onDuplicate));
  return postStepByStep(L, tx as Tx, input, claim, now, onDuplicate);
}

/**
 * The one-statement posting, run again when its UPDATE refused a row its check had passed (a balance that
 * changed under the statement: ledger_retry(), migration 0005, undid all of it). Alone (autocommit) it simply
 * runs again with a fresh view; inside a caller's transaction the transaction is lost, so the caller is told.
 */
async function postOnce(
  exec: Executor,
  input: PostInput,
  claim: RequestClaim | null,
  system: { id: string; amount: bigint }[],
  now: Date,
  alone: boolean,
): Promise<FastOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await postInOneStatement(exec, input, claim, system, now);
    } catch (err) {
      if (!isRetrySignal(err)) throw err;
      if (!alone || attempt >= 5) {
        throw new AppError('CONFLICT', 'The wallet changed while this was being processed; nothing was charged, try again', {
          cause: err,
        });
      }
    }
  }
}

/**
 * The whole posting in one statement (a transfer's money statements were five round trips). In order,
 * through the CTEs' dependencies: when every user account exists (accounts are never deleted, so the snapshot
 * can tell), lock them in code order (the same order as step by step, so concurrent postings cannot deadlock;
 * a posting that must first create an account locks nothing in this attempt, so it cannot hold one account
 * while it creates another); check that none would go below zero; only then
 * insert the transaction (ON CONFLICT on the reference), move the balances, insert the entries and mark the
 * request's Idempotency-Key claim. A refused check or a reused reference writes nothing at all, so the caller's
 * transaction is untouched, exactly as when the step-by-step path throws before its first write.
 */
async function postInOneStatement(
  tx: Executor,
  input: PostInput,
  claim: RequestClaim | null,
  system: { id: string; amount: bigint }[],
  now: Date,
): Promise<FastOutcome> {
  const today = lagosDate(now);
  const user = legsOf(input);
  const userValues = user.length
    ? sql.join(
        user.map(
          (u) =>
            sql`(${u.code}::text, ${u.amount}::bigint, ${u.outflow}::bigint, ${u.limit?.dailyOutflow?.max ?? null}::bigint, ${u.limit?.balance?.max ?? null}::bigint)`,
        ),
        sql`, `,
      )
    : sql`(NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint)`;
  const systemEntries = system.length
    ? sql`UNION ALL SELECT t.id, s.id, s.amount, NULL::bigint, ${now}::timestamptz FROM t, (VALUES ${sql.join(
        system.map((x) => sql`(${x.id}::bigint, ${x.amount}::bigint)`),
        sql`, `,
      )}) AS s(id, amount)`
    : sql``;
  const used = usedOf(sql`l`, today);
  const change = await runChange<DecidedRow>(
    tx,
    { alias: 'posted', columns: sql`id bigint, balances jsonb` },
    (made) => sql`WITH v(code, amount, outflow, max_outflow, max_balance) AS (VALUES ${userValues}),
        present AS (SELECT count(*)::int AS n FROM accounts WHERE code IN (SELECT code FROM v)),
        locked AS (SELECT a.id, a.code, a.balance, a.allow_negative, a.outflow_day, a.outflow_today FROM accounts a
                   WHERE a.code IN (SELECT code FROM v) AND (SELECT n FROM present) = ${user.length} ORDER BY a.code FOR UPDATE),
        chk AS (SELECT count(*)::int AS n, COALESCE(bool_and(l.allow_negative OR l.balance + v.amount >= 0), true) AS funds,
                       COALESCE(bool_and((v.max_outflow IS NULL OR ${used} + v.outflow <= v.max_outflow)
                                     AND (v.max_balance IS NULL OR l.balance + v.amount <= v.max_balance)), true) AS within
                FROM locked l JOIN v ON v.code = l.code),
        t AS (INSERT INTO ledger_transactions (reference, type, description, metadata, created_at)
              SELECT ${input.reference}, ${input.type}, ${input.description}, ${input.metadata ? JSON.stringify(input.metadata) : null}::jsonb, ${now}
              FROM chk WHERE chk.n = ${user.length} AND chk.funds AND chk.within
              ON CONFLICT (reference) DO NOTHING RETURNING id),
        u AS (UPDATE accounts a SET balance = a.balance + v.amount, ${outflowSet(sql`v.outflow`, today)}
              FROM v, t WHERE a.code = v.code
                AND (a.allow_negative OR a.balance + v.amount >= 0)
                AND (v.max_outflow IS NULL OR ${usedOf(sql`a`, today)} + v.outflow <= v.max_outflow)
                AND (v.max_balance IS NULL OR a.balance + v.amount <= v.max_balance)
              RETURNING a.id, a.code, a.balance),
        g AS (SELECT CASE WHEN EXISTS (SELECT 1 FROM t) AND (SELECT count(*) FROM u) <> ${user.length} THEN ledger_retry() END AS retry),
        p AS (SELECT t.id, (SELECT jsonb_object_agg(u.code, u.balance) FROM u) AS balances FROM t),
        e AS (INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, created_at)
              SELECT t.id, u.id, v.amount, u.balance, ${now}::timestamptz FROM t, u JOIN v ON v.code = u.code
              ${systemEntries}
              RETURNING 1)
        SELECT chk.n, chk.funds, chk.within, (SELECT id::text FROM t) AS tx_id, (SELECT retry FROM g) AS retry, ${made(sql`p`)} AS made,
               (SELECT json_object_agg(u.code, u.balance::text) FROM u) AS balances,
               CASE WHEN NOT chk.within THEN (SELECT json_object_agg(l.code, json_build_array(l.balance::text, (${used})::text)) FROM locked l) END AS seen
        FROM chk`,
    partsOf(input, claim),
  );
  return outcomeOf(input, user, change.rows[0], change.answers);
}

/** The posting statement by statement: kept for the rare posting that touches one user account twice. */
async function postStepByStep(
  L: LedgerState,
  tx: Tx,
  input: PostInput,
  claim: RequestClaim | null,
  now: Date,
  onDuplicate: 'throw' | 'null',
): Promise<Posted | null> {
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
  // The request's Idempotency-Key claim is marked with the money, in this transaction.
  if (claim) await runParts(tx, [claim.mark]);

  // Lock user rows in a stable order (by code) so two transfers between the same wallets cannot deadlock.
  const ordered = [...input.entries].sort((a, b) => (accountCode(a.account) < accountCode(b.account) ? -1 : 1));
  const balances: Record<string, bigint> = {};
  const values: SQL[] = [];
  for (const e of ordered) {
    if ('user' in e.account) {
      const r = await applyToUserAccount(L, tx, e.account, e.amount, outflowOf(input.type, e), lagosDate(now));
      balances[accountCode(e.account)] = r.balance;
      values.push(sql`(${inserted.id}, ${r.id}, ${e.amount}, ${r.balance}, ${now})`);
    } else {
      const id = await ensureAccount(L, tx, e.account);
      values.push(sql`(${inserted.id}, ${id}, ${e.amount}, NULL, ${now})`);
    }
  }
  await tx.execute(
    sql`INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, created_at) VALUES ${sql.join(values, sql`, `)}`,
  );
  // The parts in one statement of this transaction; `when` is a row like the one-statement posting's.
  const answers = await runParts(tx, input.parts ?? [], {
    as: 'posted',
    columns: {
      id: sql`${inserted.id}::bigint`,
      balances: sql`${JSON.stringify(Object.fromEntries(Object.entries(balances).map(([k, v]) => [k, v.toString()])))}::jsonb`,
    },
  });
  return { transactionId: inserted.id, balances, answers };
}

async function balance(exec: Executor, ref: AccountRef): Promise<bigint> {
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
}

async function userBalances(exec: Executor, userId: string): Promise<Record<UserAccountKind, bigint>> {
  const out: Record<UserAccountKind, bigint> = { wallet: 0n, bonus_locked: 0n, referral_locked: 0n, savings: 0n, loan: 0n };
  const list = await rows<{ kind: UserAccountKind; balance: string }>(
    exec,
    sql`SELECT kind, balance::text AS balance FROM accounts WHERE user_id = ${userId}`,
  );
  for (const r of list) out[r.kind] = BigInt(r.balance);
  return out;
}

/**
 * The double-entry ledger (docs/design.md §6): postings inside a caller's transaction, or alone in one statement.
 * `batch`: postings alone on a PostgreSQL pool are gathered for at most `waitMs` or `max` of them and made by one
 * statement and one commit (src/ledger/batch.ts); `max` 1 (or no `batch`) posts each on its own.
 */
export function createLedger({
  clock,
  batch,
  log,
}: {
  clock: Clock;
  batch?: { max: number; waitMs: number };
  /** Where a failed batch is reported (its postings are then posted alone). */
  log?: Pick<Logger, 'warn'>;
}): Ledger {
  const L: LedgerState = { clock, batch, log, batchers: new WeakMap(), ids: new Map(), createdIn: new WeakMap() };
  return {
    // The claim a posting marks is its request's (db/request-scope.ts), taken when the posting is asked for: inside the
    // request's scope, before any wait, so a posting queued for a batch carries its own request's claim however late
    // the batch runs, and one asked for after the request's handler returned marks nothing.
    post: async (tx, input) => (await postInner(L, tx, input, 'throw', requestClaim()))!,
    tryPost: (tx, input) => postInner(L, tx, input, 'null', requestClaim()),
    postAlone: async (db, input) => (await postInner(L, db, input, 'throw', requestClaim(), db))!,
    balance,
    userBalances,
  };
}
