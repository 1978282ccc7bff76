import { sql, type SQL } from 'drizzle-orm';
import { pipelinedEach, rows, type Db } from '../db/client.js';
import { gatherer } from '../db/batches.js';
import { partStatement, type Part } from '../db/change-statements.js';

/**
 * The Idempotency-Key claims and stored answers of concurrent requests, each kind written by ONE statement (issue 31:
 * a commit for many requests instead of one each). Claims and answers that arrive in the same event-loop turn are
 * gathered (src/db/batches.ts), as postings are; two of one claim (user and key) never share a batch. Only on a
 * pipelining PostgreSQL pool (src/db/client.ts pipelinesAlone); `REQUEST_BATCH_MAX` 1 turns it off. A batch of
 * one, or a batch whose statement fails, answers `alone`: each caller then writes its own as before, so a failure
 * stays the caller's and nothing is claimed or stored twice.
 */

/** A claim to make (the columns of idempotency_keys) with the reads answered in its round trip. */
export interface ClaimRequest {
  userId: string;
  key: string;
  operation: string;
  requestHash: string;
  now: Date;
  lockUntil: Date;
  reads: readonly Part[];
}

/**
 * `won`: the row is this request's (new, or an expired one taken over), with its reads' answers; `lost`: the row is
 * another request's (read it); `failed`: the claim was made but one of its reads failed; `alone`: make it alone.
 */
export type ClaimOutcome =
  { outcome: 'won'; answers: unknown[] } | { outcome: 'lost' } | { outcome: 'failed'; error: unknown } | { outcome: 'alone' };

export interface StoredAnswer {
  userId: string;
  key: string;
  status: number;
  /** The answer's body as JSON text. */
  body: string;
}

/**
 * The claim statement, for one claim or many (the same text whatever their number, so one prepared statement): a new
 * row per claim, or an expired one (older than `ttlMs`, counted from each claim's own time) taken over; rows in key
 * order, so two statements lock shared rows in one order. Answers the rows it claimed.
 */
export function claimStatement(items: readonly Omit<ClaimRequest, 'reads'>[], ttlMs: number): SQL {
  const claims = JSON.stringify(
    items.map((c) => ({
      user_id: c.userId,
      key: c.key,
      operation: c.operation,
      request_hash: c.requestHash,
      created_at: c.now.toISOString(),
      locked_until: c.lockUntil.toISOString(),
    })),
  );
  return sql`INSERT INTO idempotency_keys (user_id, key, operation, request_hash, status, created_at, locked_until)
      SELECT c.user_id, c.key, c.operation, c.request_hash, 'in_flight', c.created_at, c.locked_until
      FROM jsonb_to_recordset(${claims}::jsonb)
        AS c(user_id uuid, key text, operation text, request_hash text, created_at timestamptz, locked_until timestamptz)
      ORDER BY c.user_id, c.key
      ON CONFLICT (user_id, key) DO UPDATE SET operation = EXCLUDED.operation, request_hash = EXCLUDED.request_hash, status = 'in_flight',
        response_status = NULL, response_body = NULL, created_at = EXCLUDED.created_at, locked_until = EXCLUDED.locked_until
      WHERE idempotency_keys.created_at < EXCLUDED.created_at - make_interval(secs => ${ttlMs / 1000}::double precision)
      RETURNING user_id::text AS user_id, key`;
}

/** The answers statement, for one stored answer or many (one prepared statement). */
export function answerStatement(items: readonly StoredAnswer[]): SQL {
  const answers = JSON.stringify(items.map((a) => ({ user_id: a.userId, key: a.key, status: a.status, body: a.body })));
  return sql`UPDATE idempotency_keys k SET status = 'done', response_status = a.status, response_body = a.body::json
      FROM jsonb_to_recordset(${answers}::jsonb) AS a(user_id uuid, key text, status int, body text)
      WHERE k.user_id = a.user_id AND k.key = a.key`;
}

const claimKey = (userId: string, key: string) => `${userId.toLowerCase()}\n${key}`;

/** Told of a batch's statement that failed (its items are then written alone): for a log line. */
export type BatchFailed = (what: 'claims' | 'answers', size: number, err: unknown) => void;

export function claimBatcher(db: Db, max: number, ttlMs: number, failed: BatchFailed) {
  return gatherer<ClaimRequest, ClaimOutcome>({
    max,
    waitMs: 0,
    keys: (c) => [claimKey(c.userId, c.key)],
    run: async (items) => {
      if (items.length < 2) return items.map(() => ({ outcome: 'alone' as const }));
      const insert = claimStatement(items, ttlMs);
      const reads = items.flatMap((c) => c.reads.map((p) => partStatement(p, sql`(SELECT 1) AS made`)));
      let settled: PromiseSettledResult<unknown[]>[];
      try {
        settled = await pipelinedEach(db, [insert, ...reads]);
      } catch (err) {
        failed('claims', items.length, err);
        return items.map(() => ({ outcome: 'alone' as const }));
      }
      const [claimed, ...answered] = settled;
      // The claim statement failed: nothing of it was made.
      if (claimed.status === 'rejected') {
        failed('claims', items.length, claimed.reason);
        return items.map(() => ({ outcome: 'alone' as const }));
      }
      const won = new Set((claimed.value as { user_id: string; key: string }[]).map((r) => claimKey(r.user_id, r.key)));
      let at = 0;
      return items.map((c): ClaimOutcome => {
        const mine = answered.slice(at, at + c.reads.length);
        at += c.reads.length;
        if (!won.has(claimKey(c.userId, c.key))) return { outcome: 'lost' };
        const failed = mine.find((r) => r.status === 'rejected');
        if (failed) return { outcome: 'failed', error: (failed as PromiseRejectedResult).reason };
        return {
          outcome: 'won',
          answers: mine.map((r) => ((r as PromiseFulfilledResult<unknown[]>).value[0] as { answer?: unknown } | undefined)?.answer ?? null),
        };
      });
    },
  });
}

/** The stored answer of one claim, alone. */
export const storeAnswer = (db: Db, a: StoredAnswer) => rows(db, answerStatement([a]));

/** Answers `true` when the answer was stored with its batch, `false` when its caller must store it alone. */
export function answerBatcher(db: Db, max: number, failed: BatchFailed) {
  return gatherer<StoredAnswer, boolean>({
    max,
    waitMs: 0,
    keys: (a) => [claimKey(a.userId, a.key)],
    run: async (items) => {
      if (items.length < 2) return items.map(() => false);
      try {
        await rows(db, answerStatement(items));
        return items.map(() => true);
      } catch (err) {
        failed('answers', items.length, err);
        return items.map(() => false);
      }
    },
  });
}
