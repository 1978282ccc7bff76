import { z } from 'zod';

/** Pagination inputs (docs/design.md §4): limit default 20, clamped to 100 (spec 4.12: clamped, not refused). */
export const PAGE_CAP = 100;
export const pageInput = {
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .default(20)
    .transform((n) => Math.min(n, PAGE_CAP)),
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset must be 0 or more')
    .default(0),
};

export const pageOutput = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), limit: z.number(), offset: z.number(), hasMore: z.boolean() });

/** Fetch limit+1 rows, then call this: it trims and tells whether more exist. */
export function page<T>(rowsPlusOne: T[], limit: number, offset: number) {
  return { items: rowsPlusOne.slice(0, limit), limit, offset, hasMore: rowsPlusOne.length > limit };
}
