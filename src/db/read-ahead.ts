import type { SQL } from 'drizzle-orm';

/**
 * A read an operation runs ahead of its checks, in one statement with the others (and with the Idempotency-Key
 * claim): a scalar subquery building JSON, typed by what it answers. The module that owns the data builds it
 * (`kyc.eligibilityRead`, `walletMoney.recipientRead`), and the handler gets the typed answer in `ctx.ahead`,
 * null when the subquery found no row. The SQL stays inside the owning module.
 */
export interface Read<T> {
  readonly sql: SQL;
  /** Never set: carries the answer's type. */
  readonly answer?: T;
}

export const readOf = <T>(query: SQL): Read<T> => ({ sql: query });

export type Reads = Record<string, Read<unknown>>;

/** The answers of a set of reads, by key. */
export type ReadAnswers<A extends Reads> = { readonly [K in keyof A]: A[K] extends Read<infer T> ? T | null : never };
