import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { DAY, lagosDate, type Clock } from '../../kernel/clock.js';
import { phoneInput } from '../../kernel/inputs.js';
import { toNaira, naira } from '../../kernel/money.js';
import { emailsOf, userIdByEmail } from '../identity/api.js';
import { PURCHASE_CHANNELS, PURCHASE_SORTS, searchPurchases, type PurchaseSearch } from '../vtu/api.js';
import { lagosDay, lagosRange } from './range.js';

/** The widest date range of one search (issue 30 brief: at most 92 days). */
export const SEARCH_MAX_DAYS = 92;
/** Without a reference, phone, user or e-mail the search covers these last Lagos days (docs/decisions.md). */
export const SEARCH_DEFAULT_DAYS = 30;

export const SEARCH_SORTS = PURCHASE_SORTS;

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
  channel: z.enum(PURCHASE_CHANNELS, { error: 'channel must be app, ussd or whatsapp' }).optional(),
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
      channel: z.enum(PURCHASE_CHANNELS).meta({ description: 'where it was made: app (and the API), ussd or whatsapp' }),
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

/**
 * What vtu searches for (vtu/operator-reads.ts has the statement and its indexes): the input's keys, with `userId`
 * the customer an e-mail names once identity has resolved it (`emailUser`).
 */
export function purchaseSearch(i: SearchTransactionsInput, range: { start: Date; end: Date } | null, emailUser?: string): PurchaseSearch {
  return {
    reference: i.reference,
    phone: i.phone,
    userId: i.userId ?? emailUser,
    status: i.status,
    service: i.service?.toLowerCase(),
    channel: i.channel,
    range,
    sort: i.sort,
    limit: i.limit,
    offset: i.offset,
  };
}

/**
 * Operators' purchase search (issue 30): vtu's statement on the key's index. An e-mail is first resolved to its
 * customer by identity (users_email_key); the page's e-mails come from identity after it, in one statement.
 */
export function createTransactionSearch(deps: { db: Db; clock: Clock }) {
  return {
    async search(i: SearchTransactionsInput) {
      const range = searchRange(i, deps.clock.now());
      const page = { from: range?.from ?? null, to: range?.to ?? null, limit: i.limit, offset: i.offset };
      const emailUser = i.email === undefined ? undefined : await userIdByEmail(deps.db, i.email);
      // An e-mail nobody has, or another customer's than the userId given, matches no purchase.
      if (emailUser === null || (emailUser !== undefined && i.userId !== undefined && i.userId !== emailUser))
        return { items: [], ...page, hasMore: false };
      const found = await searchPurchases(deps.db, purchaseSearch(i, range, emailUser));
      const emails = await emailsOf(
        deps.db,
        found.items.map((t) => t.userId),
      );
      return {
        items: found.items.map((t) => ({
          id: t.id,
          reference: t.reference,
          userId: t.userId,
          email: emails.get(t.userId) ?? null,
          service: t.service,
          provider: t.provider,
          recipient: t.recipient,
          phone: t.phone,
          amount: toNaira(t.amount),
          status: t.status,
          channel: t.channel,
          createdAt: iso(t.createdAt),
          settledAt: t.status === 'processing' ? null : iso(t.updatedAt),
        })),
        ...page,
        hasMore: found.hasMore,
      };
    },
  };
}
