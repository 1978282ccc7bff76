import { bigint, timestamp } from 'drizzle-orm/pg-core';

/** A timestamptz column (the name stays a literal type, so RowOf keys the row by it). */
export const ts = <N extends string>(name: N) => timestamp(name, { withTimezone: true });
/** An amount in kobo (int8). */
export const kobo = <N extends string>(name: N) => bigint(name, { mode: 'bigint' });
