import { sql } from 'drizzle-orm';
import { mergeable, runReads, type Part } from '../db/change-statements.js';
import { one, pipelinesAlone, rows, type Db } from '../db/client.js';
import type { Logger } from '../lib/logger.js';
import { answerBatcher, claimBatcher, claimStatement, storeAnswer, type BatchFailed, type ClaimOutcome } from './idempotency-batch.js';
import { AppError } from '../kernel/errors.js';
import { DAY, MINUTE, type Clock } from '../kernel/clock.js';
import type { RequestClaim } from '../db/request-scope.js';

/**
 * Idempotency-Key (docs/design.md §4): same user + key + same body within 24 h replays the stored answer; a different
 * body is 422; a request still in flight is 409. The row is claimed with INSERT ... ON CONFLICT, so among
 * concurrent requests with one key exactly one executes, on any instance. 5xx answers are not stored, so the
 * client may retry them. `exec` gets the claim (a RequestClaim) and runs the operation in the request's scope with it
 * (db/request-scope.ts): every ledger posting made there marks it 'committed' inside its own transaction, so a claim
 * whose process died after moving money is never taken over and run again.
 */
export const IDEMPOTENCY_TTL_MS = DAY;
/** An in-flight claim older than this belongs to a crashed request and may be taken over. */
export const IDEMPOTENCY_LOCK_MS = 2 * MINUTE;

export interface StoredResponse {
  status: number;
  body: unknown;
}

export async function withIdempotency(
  db: Db,
  clock: Clock,
  claim: { userId: string; key: string; operation: string; requestHash: string },
  /**
   * Runs the request once, with the claim its postings mark (`requestClaim`, for the request's scope); `answers` holds
   * the reads' answers, in their order, when the claim statement read them.
   */
  exec: (requestClaim: RequestClaim, answers?: unknown[]) => Promise<StoredResponse>,
  /**
   * Reads answered in the claim's round trip (an operation's read-ahead: one round trip fewer), each its own
   * statement; thrown away when the claim loses.
   */
  reads: readonly Part[] = [],
  /**
   * `batchMax` > 1: claims and answers of concurrent requests share statements (src/http/idempotency-batch.ts);
   * `log` hears of a batch that failed and was written alone.
   */
  opts: { batchMax?: number; log?: Logger } = {},
): Promise<StoredResponse & { replayed: boolean }> {
  const now = clock.now();
  const lockUntil = new Date(now.getTime() + IDEMPOTENCY_LOCK_MS);
  let answers: unknown[] | undefined;
  let won: boolean;
  const batch = batchersOf(db, opts);
  const batched: ClaimOutcome = batch ? await batch.claims({ ...claim, now, lockUntil, reads }) : { outcome: 'alone' };
  if (batched.outcome === 'failed') throw batched.error;
  if (batched.outcome !== 'alone') {
    won = batched.outcome === 'won';
    if (batched.outcome === 'won') answers = batched.answers;
  } else {
    // Keys older than 24 h are forgotten: an expired row is taken over as a fresh claim in the same statement (a
    // concurrent claimant re-checks the updated row, finds it fresh and loses). The claim and the reads in one round
    // trip, each its own statement; the reads are thrown away when the claim loses.
    const r = await runReads(db, reads, claimStatement([{ ...claim, now, lockUntil }], IDEMPOTENCY_TTL_MS));
    won = r.first.length > 0;
    if (won) answers = r.answers;
  }
  if (!won) {
    const replay = await afterLostClaim(db, claim, now, lockUntil);
    if (replay) return replay;
  }
  const requestClaim = claimOf(claim);
  // A claim is released for a retry only when no money moved under it.
  const release = () =>
    rows(db, sql`DELETE FROM idempotency_keys WHERE user_id = ${claim.userId} AND key = ${claim.key} AND status = 'in_flight'`);
  let res: StoredResponse;
  try {
    res = await exec(requestClaim, answers);
  } catch (err) {
    await release();
    throw err;
  }
  if (res.status >= 500) {
    await release();
  } else {
    const answer = { userId: claim.userId, key: claim.key, status: res.status, body: JSON.stringify(res.body) };
    // Stored with the answers of other requests finishing in the same turn, or alone.
    const batch = batchersOf(db, opts);
    if (!batch || !(await batch.answers(answer))) await storeAnswer(db, answer);
  }
  return { ...res, replayed: false };
}

/**
 * Another request holds or held the key: its stored answer (replayed), or null when its claim is taken over (a crashed
 * request's, not in flight any more); otherwise the refusal (in progress, another body, money moved but no answer).
 */
async function afterLostClaim(
  db: Db,
  claim: { userId: string; key: string; operation: string; requestHash: string },
  now: Date,
  lockUntil: Date,
): Promise<(StoredResponse & { replayed: true }) | null> {
  const row = await one<{
    operation: string;
    request_hash: string;
    status: string;
    response_status: number;
    response_body: unknown;
    locked_until: Date;
  }>(
    db,
    sql`SELECT operation, request_hash, status, response_status, response_body, locked_until FROM idempotency_keys
        WHERE user_id = ${claim.userId} AND key = ${claim.key}`,
  );
  if (!row) throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is being processed; retry shortly');
  if (row.operation !== claim.operation || row.request_hash !== claim.requestHash) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request');
  }
  if (row.status === 'done') return { status: row.response_status, body: row.response_body, replayed: true };
  if (row.status === 'committed' && new Date(row.locked_until) < now) {
    // The money moved but the answer was lost (a crash): running it again would move it twice.
    throw new AppError(
      'CONFLICT',
      'The request with this Idempotency-Key was carried out but its answer was lost; check your history instead of retrying',
    );
  }
  const tookOver = await one(
    db,
    sql`UPDATE idempotency_keys SET locked_until = ${lockUntil}
        WHERE user_id = ${claim.userId} AND key = ${claim.key} AND status = 'in_flight' AND locked_until < ${now} RETURNING 1`,
  );
  if (!tookOver) throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is being processed; retry shortly');
  return null;
}

const batchers = new WeakMap<
  object,
  { claims: ReturnType<typeof claimBatcher>; answers: ReturnType<typeof answerBatcher>; log?: Logger }
>();

/** The database's claim and answer batchers, or null where each is written alone (PGlite, a transaction, max 1). */
function batchersOf(db: Db, { batchMax = 1, log }: { batchMax?: number; log?: Logger }) {
  if (batchMax < 2 || !pipelinesAlone(db)) return null;
  let b = batchers.get(db);
  if (!b) {
    const failed: BatchFailed = (what, size, err) =>
      b?.log?.warn({ err, size }, `idempotency: a batch of ${size} ${what} failed; each is written alone`);
    b = { claims: claimBatcher(db, batchMax, IDEMPOTENCY_TTL_MS, failed), answers: answerBatcher(db, batchMax, failed) };
    batchers.set(db, b);
  }
  // The latest caller's logger (one per service) hears of failed batches.
  if (log) b.log = log;
  return b;
}

/**
 * The claim's mark as a part of a posting (the ledger adds it to every posting made in the request's scope): marks the
 * claim 'committed' in the posting's own
 * transaction, only when the posting is made (`when` has its row). SKIP LOCKED: two money transactions of one request
 * never wait on each other here (no deadlock with their wallet locks); the one holding the row marks it.
 */
export function claimOf(claim: { userId: string; key: string }): RequestClaim {
  // Mergeable: in a batch of postings every made posting's claim is marked by one statement (db/change-statements.ts).
  return {
    mark: mergeable(
      'idempotency.claim_mark',
      { user_id: claim.userId, key: claim.key },
      (each, name) =>
        sql`${name('claim_mark')} AS (UPDATE idempotency_keys SET status = 'committed' WHERE (user_id, key) IN (
              SELECT k.user_id, k.key FROM idempotency_keys k JOIN ${each} ON k.user_id = (each.data ->> 'user_id')::uuid AND k.key = each.data ->> 'key'
              WHERE k.status = 'in_flight' ORDER BY k.user_id, k.key FOR UPDATE OF k SKIP LOCKED)
            RETURNING 1)`,
    ),
  };
}
