import { sql, type SQL } from 'drizzle-orm';
import { rows } from '../../db/client.js';
import { page } from '../../kernel/paging.js';
import { emailsOf } from '../identity/api.js';
import { settlementReferences } from '../payments/api.js';
import { purchaseReferences } from '../vtu/api.js';
import type { ApprovalDeps } from './deps.js';
import type { ApprovalSort } from './inputs.js';
import { COLS, mustGet, view, type RequestRow } from './requests.js';

/** The stored amount by its table name: the selected `amount` is text and would sort as text. */
const APPROVAL_ORDER: Record<ApprovalSort, SQL> = {
  newest: sql`created_at DESC, id DESC`,
  oldest: sql`created_at ASC, id ASC`,
  amount_desc: sql`approval_requests.amount DESC, created_at DESC, id DESC`,
  amount_asc: sql`approval_requests.amount ASC, created_at DESC, id DESC`,
};

type RequestView = ReturnType<typeof view>;

/** The purchase a request is about (a resolution), or the settlement (a correction): its id in the request's facts. */
const purchaseOf = (a: RequestView) => (a.action === 'vtu_resolution' ? String(a.details.transactionId ?? a.subjectId) : null);
const settlementOf = (a: RequestView) => (a.action === 'settlement_correction' ? String(a.details.settlementId ?? a.subjectId) : null);

/**
 * Issue 44: who asked, for which customer and which purchase or top-up, in words: each request's maker and customer
 * (the money's owner, none for a threshold change) with their e-mails, and the reference of what it is about (a
 * resolution's purchase, `vtu_…`; a correction's settled top-up), each read from its owner in one statement for the
 * page.
 */
async function withPeople({ db }: Pick<ApprovalDeps, 'db'>, list: RequestView[]) {
  const customerOf = (a: RequestView) => (typeof a.details.userId === 'string' ? a.details.userId : null);
  const [emails, purchases, settlements] = await Promise.all([
    emailsOf(db, [...list.map((a) => a.makerId), ...list.map(customerOf).filter((id) => id !== null)]),
    purchaseReferences(
      db,
      list.map(purchaseOf).filter((id) => id !== null),
    ),
    settlementReferences(
      db,
      list.map(settlementOf).filter((id) => id !== null),
    ),
  ]);
  return list.map((a) => {
    const customerId = customerOf(a);
    const purchase = purchaseOf(a);
    const settlement = settlementOf(a);
    return {
      ...a,
      makerEmail: emails.get(a.makerId) ?? null,
      customerId,
      customerEmail: customerId === null ? null : (emails.get(customerId) ?? null),
      reference: (purchase && purchases.get(purchase)) ?? (settlement && settlements.get(settlement)) ?? null,
    };
  });
}

/** A page of requests by status (expired: pending past its time), with their makers' and customers' e-mails. */
export async function list(
  deps: ApprovalDeps,
  input: { status?: 'pending' | 'approved' | 'rejected' | 'expired'; sort?: ApprovalSort; limit: number; offset: number },
) {
  const { db, clock } = deps;
  const now = clock.now();
  const status = input.status ?? null;
  const stored = status === 'expired' ? 'pending' : status;
  const list = await rows<RequestRow>(
    db,
    sql`SELECT ${COLS} FROM approval_requests
        WHERE (${stored}::text IS NULL OR status = ${stored})
          AND (${status}::text IS DISTINCT FROM 'pending' OR expires_at > ${now})
          AND (${status}::text IS DISTINCT FROM 'expired' OR expires_at <= ${now})
        ORDER BY ${APPROVAL_ORDER[input.sort ?? 'newest']} LIMIT ${input.limit + 1} OFFSET ${input.offset}`,
  );
  return page(
    await withPeople(
      deps,
      list.map((r) => view(clock, r)),
    ),
    input.limit,
    input.offset,
  );
}

/** One request, with its maker, customer and reference. */
export async function get(deps: ApprovalDeps, id: string) {
  const [approval] = await withPeople(deps, [view(deps.clock, await mustGet(deps.db, id))]);
  return { approval };
}

/** A decided request's answer with its maker, customer and reference (the audit row names the reference too). */
export async function withContext(deps: ApprovalDeps, done: { approval: RequestView }) {
  const [approval] = await withPeople(deps, [done.approval]);
  return { ...done, approval };
}
