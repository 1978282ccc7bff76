import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { rows as query, type Db } from '../../db/client.js';
import { DAY, lagosDate, type Clock } from '../../kernel/clock.js';
import { phoneInput } from '../../kernel/inputs.js';
import { toNaira, naira } from '../../kernel/money.js';
import { lagosDay, lagosRange } from './range.js';

/** The widest date range of one search (issue 30 brief: at most 92 days). */
export const SEARCH_MAX_DAYS = 92;
/** Without a reference, phone, user or e-mail the search covers these last Lagos days (docs/decisions.md). */
export const SEARCH_DEFAULT_DAYS = 30;

export const SEARCH_SORTS = ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const;
const ORDER: Record<(typeof SEARCH_SORTS)[number], SQL> = {
  newest: sql`t.created_at DESC, t.id DESC`,
  oldest: sql`t.created_at ASC, t.id ASC`,
  amount_desc: sql`t.amount DESC, t.created_at DESC, t.id DESC`,
  amount_asc: sql`t.amount ASC, t.created_at DESC, t.id DESC`,
};

const optText = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text` })
    .trim()
    .min(1, `${name} must not be empty`)
    .max(max, `${name} must be at most ${max} characters`)
    .optional();

export const searchTransactionsInput = z.object({
  reference: optText('reference', 80),
  phone: phoneInput.optional().meta({ description: 'the recipient or notification phone, any common spelling' }),
  userId: z.string().uuid('userId must be a UUID').optional(),
  email: z
    .string({ error: 'email must be text' })
    .trim()
    .toLowerCase()
    .max(254, 'email is too long')
    .email('email must be a valid e-mail address')
    .optional(),
  status: z.enum(['processing', 'success', 'failed'], { error: 'status must be processing, success or failed' }).optional(),
  service: optText('service', 40),
  from: lagosDay.optional().meta({ description: 'first Lagos day included (YYYY-MM-DD)' }),
  to: lagosDay.optional().meta({ description: 'last Lagos day included (YYYY-MM-DD)' }),
  sort: z.enum(SEARCH_SORTS, { error: 'sort must be newest, oldest, amount_desc or amount_asc' }).default('newest'),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 100')
    .max(100, 'limit must be between 1 and 100')
    .default(50),
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset must be 0 or more')
    .max(10_000, 'offset must be at most 10000')
    .default(0),
});
export type SearchTransactionsInput = z.output<typeof searchTransactionsInput>;

export const searchTransactionsOutput = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      reference: z.string(),
      userId: z.string(),
      email: z.string().nullable(),
      service: z.string(),
      provider: z.string(),
      recipient: z.string(),
      phone: z.string().nullable(),
      amount: naira,
      status: z.enum(['processing', 'success', 'failed']),
      createdAt: z.string(),
      settledAt: z.string().nullable().meta({ description: 'when it became success or failed; null while processing' }),
    }),
  ),
  from: z.string().nullable(),
  to: z.string().nullable(),
  limit: z.number(),
  offset: z.number(),
  hasMore: z.boolean(),
});

interface Row {
  id: string;
  reference: string;
  user_id: string;
  email: string | null;
  service: string;
  provider: string;
  recipient: string;
  phone: string | null;
  amount: string;
  status: 'processing' | 'success' | 'failed';
  created_at: string | Date;
  updated_at: string | Date;
}
const iso = (v: string | Date) => new Date(v).toISOString();

/** The date bounds of a search: the given days, or the last SEARCH_DEFAULT_DAYS when no key narrows it. */
export function searchRange(i: SearchTransactionsInput, now: Date) {
  const keyed = i.reference !== undefined || i.phone !== undefined || i.userId !== undefined || i.email !== undefined;
  if (!i.from && !i.to) {
    if (keyed) return null;
    const to = lagosDate(now);
    const from = lagosDate(new Date(now.getTime() - (SEARCH_DEFAULT_DAYS - 1) * DAY));
    return lagosRange({ from, to }, now, SEARCH_MAX_DAYS);
  }
  return lagosRange({ from: i.from, to: i.to }, now, SEARCH_MAX_DAYS);
}

/** The search's one statement (test/console/transactions-search.test.ts reads its plans). */
export function searchStatement(i: SearchTransactionsInput, range: { start: Date; end: Date } | null) {
  const where: SQL[] = [];
  if (i.reference !== undefined) where.push(sql`t.reference = ${i.reference}`);
  if (i.phone !== undefined) where.push(sql`(t.recipient = ${i.phone} OR t.phone = ${i.phone})`);
  if (i.userId !== undefined) where.push(sql`t.user_id = ${i.userId}`);
  if (i.email !== undefined) where.push(sql`t.user_id = (SELECT id FROM users WHERE email = ${i.email})`);
  if (i.status !== undefined) where.push(sql`t.status = ${i.status}`);
  if (i.service !== undefined) where.push(sql`t.service = ${i.service.toLowerCase()}`);
  if (range) where.push(sql`t.created_at >= ${range.start} AND t.created_at < ${range.end}`);
  const cond = where.length ? sql.join(where, sql` AND `) : sql`TRUE`;
  return sql`SELECT t.id, t.reference, t.user_id, u.email, t.service, t.provider, t.recipient, t.phone, t.amount::text AS amount,
       t.status, t.created_at, t.updated_at
    FROM vtu_transactions t LEFT JOIN users u ON u.id = t.user_id
    WHERE ${cond} ORDER BY ${ORDER[i.sort]} LIMIT ${i.limit + 1} OFFSET ${i.offset}`;
}

/**
 * Operators' purchase search (issue 30). Each key has its index: reference (unique), phone (recipient and phone
 * indexes, migration 1050), user or e-mail (vtu_transactions_user_idx after users_email_key), otherwise the date
 * range on vtu_transactions_dashboard_idx (created_at first). Status and service filter what those indexes give.
 */
export function createTransactionSearch(deps: { db: Db; clock: Clock }) {
  return {
    async search(i: SearchTransactionsInput) {
      const range = searchRange(i, deps.clock.now());
      const rows = await query<Row>(deps.db, searchStatement(i, range));
      return {
        items: rows.slice(0, i.limit).map((r) => ({
          id: r.id,
          reference: r.reference,
          userId: r.user_id,
          email: r.email,
          service: r.service,
          provider: r.provider,
          recipient: r.recipient,
          phone: r.phone,
          amount: toNaira(BigInt(r.amount)),
          status: r.status,
          createdAt: iso(r.created_at),
          settledAt: r.status === 'processing' ? null : iso(r.updated_at),
        })),
        from: range?.from ?? null,
        to: range?.to ?? null,
        limit: i.limit,
        offset: i.offset,
        hasMore: rows.length > i.limit,
      };
    },
  };
}
