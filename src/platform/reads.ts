import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { runReads, type Part } from '../db/change-statements.js';
import { readAheadAnswer } from '../db/request-scope.js';

/**
 * A read: a scalar subquery (typically a json_build_object) answered by a statement of its own, typed by what it
 * answers (null when it finds no row), named by `key` (what it reads and for whom: `kyc.eligibility:<user id>`).
 * The module that owns the data builds it (kyc.eligibilityRead, walletMoney.recipientRead) and reads it with
 * `answerOf`; an operation lists the reads its checks and handler make (registry `readAhead`), which then travel in
 * the round trip of its Idempotency-Key claim, and `answerOf` finds their answers in the request's scope by key.
 * One copy of each read: the owner's function reads the same `Read` either way.
 */
export interface Read<T = unknown> extends Part<T> {
  readonly key: string;
}

export const readOf = <T>(key: string, query: SQL): Read<T> => ({ key, output: () => sql`(${query})` });

/** An operation's reads, by the name the declaration gives them. */
export type Reads = Record<string, Read<unknown>>;

/** The answers of a set of reads, by name. */
export type ReadAnswers<A extends Reads> = { readonly [K in keyof A]: A[K] extends Read<infer T> ? T | null : never };

/** Reads on their own, each its own statement, all in one round trip (after `first`, when given). */
export { runReads };

/** The read's answer: the request's read-ahead's when it read this key, else read now on `exec`. */
export async function answerOf<T>(exec: Executor, read: Read<T>): Promise<T | null> {
  const ahead = readAheadAnswer(read.key);
  if (ahead.found) return ahead.value as T | null;
  const { answers } = await runReads(exec, [read]);
  return (answers[0] ?? null) as T | null;
}
