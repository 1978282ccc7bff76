import { sql, type SQL } from 'drizzle-orm';
import { rows } from '../../db/client.js';
import { page } from '../../kernel/paging.js';
import { emailsOf } from '../identity/api.js';
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

/**
 * Issue 44: who asked and for which customer, in words: each request's maker and customer (the money's owner, none
 * for a threshold change) with their e-mails, read in one statement for the page.
 */
async function withPeople({ db }: Pick<ApprovalDeps, 'db'>, list: RequestView[]) {
  const customerOf = (a: RequestView) => (typeof a.details.userId === 'string' ? a.details.userId : null);
  const emails = await emailsOf(db, [...list.map((a) => a.makerId), ...list.map(customerOf).filter((id) => id !== null)]);
  return list.map((a) => {
    const customerId = customerOf(a);
    return {
      ...a,
      makerEmail: emails.get(a.makerId) ?? null,
      customerId,
      customerEmail: customerId === null ? null : (emails.get(customerId) ?? null),
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

/** One request. */
export async function get({ db, clock }: ApprovalDeps, id: string) {
  return { approval: view(clock, await mustGet(db, id)) };
}
