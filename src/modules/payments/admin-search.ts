import { sql, type SQL } from 'drizzle-orm';
import { rows, type Db, type Executor } from '../../db/client.js';
import { toNaira } from '../../kernel/money.js';
import { emailsOf, userIdByEmail } from '../identity/api.js';
import { intentView, iso, type AdminPaymentItem, type IntentRow } from './model.js';

/** adminSearchPayments' orders; by amount only for intents and settlements (events carry none). */
export const PAYMENT_SORTS = ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const;
export type PaymentSort = (typeof PAYMENT_SORTS)[number];
/** Each kind's fixed ORDER BY per sort (the input's text never reaches the statement); amount is the stored bigint. */
const ORDER = {
  intents: {
    newest: sql`i.created_at DESC, i.id`,
    oldest: sql`i.created_at ASC, i.id`,
    amount_desc: sql`i.amount DESC, i.created_at DESC, i.id`,
    amount_asc: sql`i.amount ASC, i.created_at DESC, i.id`,
  },
  settlements: {
    newest: sql`s.created_at DESC, s.id`,
    oldest: sql`s.created_at ASC, s.id`,
    amount_desc: sql`s.amount DESC, s.created_at DESC, s.id`,
    amount_asc: sql`s.amount ASC, s.created_at DESC, s.id`,
  },
  events: { newest: sql`received_at DESC, id`, oldest: sql`received_at ASC, id` },
} satisfies Record<string, Partial<Record<PaymentSort, SQL>>>;

/** adminSearchPayments' input: one kind, its filters, a sort and a page. */
export interface PaymentSearch {
  kind: 'intents' | 'settlements' | 'events';
  reference?: string;
  userId?: string;
  email?: string;
  status?: string;
  flagged?: boolean;
  /** Intents paid less or more than they asked (issue 44). */
  paid?: 'different';
  sort?: PaymentSort;
  limit: number;
  offset: number;
}

/** The filters as the statements bind them (null: not filtered), with the customer an e-mail names. */
interface Filters {
  sort: PaymentSort;
  ref: string | null;
  uid: string | null;
  byEmail: string | null;
  status: string | null;
  lim: number;
}

/** adminSearchPayments: intents, settlements or webhook events, newest first by default, a page at a time. */
export async function searchPayments(db: Db, input: PaymentSearch) {
  const email = input.email?.toLowerCase() ?? null;
  // An e-mail is identity's to resolve: intents and settlements are then filtered by its customer, and nobody
  // with it matches none (events have no customer, and ignore it).
  const byEmail = email === null || input.kind === 'events' ? null : await userIdByEmail(db, email);
  if (email !== null && input.kind !== 'events' && byEmail === null)
    return { items: [], limit: input.limit, offset: input.offset, hasMore: false };
  const f: Filters = {
    sort: input.sort ?? 'newest',
    ref: input.reference ?? null,
    uid: input.userId ?? null,
    byEmail,
    status: input.status ?? null,
    lim: input.limit + 1,
  };
  const items: AdminPaymentItem[] =
    input.kind === 'intents'
      ? await searchIntents(db, input, f)
      : input.kind === 'settlements'
        ? await searchSettlements(db, input, f)
        : await searchEvents(db, input, f);
  return { items: items.slice(0, input.limit), limit: input.limit, offset: input.offset, hasMore: items.length > input.limit };
}

async function searchIntents(db: Db, input: PaymentSearch, { sort, ref, uid, byEmail, status, lim }: Filters): Promise<AdminPaymentItem[]> {
  const list = await rows<IntentRow>(
    db,
    sql`SELECT ${sql.raw('i.id, i.user_id, i.reference, i.processor, i.amount::text AS amount, i.status, i.origin, i.email, i.checkout_url, i.access_code, i.amount_paid::text AS amount_paid, i.channel, i.paid_at, i.settled_at, i.failure_reason, i.created_at')}
        FROM topup_intents i
        WHERE (${ref}::text IS NULL OR i.reference = ${ref}) AND (${uid}::uuid IS NULL OR i.user_id = ${uid}::uuid)
          AND (${byEmail}::uuid IS NULL OR i.user_id = ${byEmail}::uuid) AND (${status}::text IS NULL OR i.status = ${status})
          AND (${input.paid === 'different'}::boolean IS FALSE OR i.amount_paid <> i.amount)
        ORDER BY ${ORDER.intents[sort]} LIMIT ${lim} OFFSET ${input.offset}`,
  );
  const emails = await emailsOf(
    db,
    list.map((r) => r.user_id),
  );
  return list.map((r) => ({ kind: 'intent' as const, ...intentView(r), userId: r.user_id, userEmail: emails.get(r.user_id)! }));
}

async function searchSettlements(db: Db, input: PaymentSearch, { sort, ref, uid, byEmail, lim }: Filters): Promise<AdminPaymentItem[]> {
  const flagged = input.flagged ?? null;
  const list = await rows<{
    id: string;
    processor: string;
    processor_reference: string;
    user_id: string;
    kind: string;
    amount: string;
    channel: string | null;
    source: string;
    over_cap: boolean;
    created_at: Date;
  }>(
    db,
    sql`SELECT s.id, s.processor, s.processor_reference, s.user_id, s.kind, s.amount::text AS amount, s.channel, s.source, s.over_cap, s.created_at
        FROM payment_settlements s
        WHERE (${ref}::text IS NULL OR s.processor_reference = ${ref}) AND (${uid}::uuid IS NULL OR s.user_id = ${uid}::uuid)
          AND (${byEmail}::uuid IS NULL OR s.user_id = ${byEmail}::uuid) AND (${flagged}::boolean IS NULL OR s.over_cap = ${flagged})
        ORDER BY ${ORDER.settlements[sort]} LIMIT ${lim} OFFSET ${input.offset}`,
  );
  const emails = await emailsOf(
    db,
    list.map((r) => r.user_id),
  );
  return list.map((r) => ({
    kind: 'settlement' as const,
    id: r.id,
    reference: r.processor_reference,
    processor: r.processor,
    userId: r.user_id,
    userEmail: emails.get(r.user_id)!,
    settlementKind: r.kind,
    amount: toNaira(r.amount),
    channel: r.channel,
    source: r.source,
    flagged: r.over_cap,
    createdAt: iso(r.created_at)!,
  }));
}

async function searchEvents(db: Db, input: PaymentSearch, { sort, ref, status, lim }: Filters): Promise<AdminPaymentItem[]> {
  const list = await rows<{
    id: string;
    processor: string;
    event: string;
    reference: string | null;
    status: string;
    outcome: string | null;
    deliveries: number;
    received_at: Date;
    processed_at: Date | null;
  }>(
    db,
    sql`SELECT id, processor, event, reference, status, outcome, deliveries, received_at, processed_at FROM processor_events
        WHERE (${ref}::text IS NULL OR reference = ${ref}) AND (${status}::text IS NULL OR status = ${status})
        ORDER BY ${ORDER.events[sort === 'oldest' ? 'oldest' : 'newest']} LIMIT ${lim} OFFSET ${input.offset}`,
  );
  return list.map((r) => ({
    kind: 'event' as const,
    id: r.id,
    processor: r.processor,
    event: r.event,
    reference: r.reference,
    status: r.status,
    outcome: r.outcome,
    deliveries: r.deliveries,
    createdAt: iso(r.received_at)!,
    processedAt: iso(r.processed_at),
  }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The settlements' references by their ids (one statement): what the processor settled, the top-up's `top_…` for a
 * card or transfer top-up, the processor's own for a dedicated account's transfer (Top-ups' settlements search by it).
 */
export async function settlementReferences(exec: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  const valid = [...new Set(ids.filter((id) => UUID.test(id)))];
  if (!valid.length) return new Map();
  const list = await rows<{ id: string; reference: string }>(
    exec,
    sql`SELECT id::text AS id, processor_reference AS reference FROM payment_settlements WHERE id = ANY(${`{${valid.join(',')}}`}::uuid[])`,
  );
  return new Map(list.map((r) => [r.id, r.reference]));
}
