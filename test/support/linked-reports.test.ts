import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, PIN } from '../helpers/factories.js';

// Issue 44: a customer's transaction report and the support thread about the same purchase show each other, and
// resolving one resolves the other (one action, one audit row naming both).
let h: Harness;
let operator: TestUser;
let customer: TestUser;
const P = '/_serverFn/';
const asCustomer = (method: 'GET' | 'POST', name: string, data?: Record<string, unknown>) =>
  call(h, method, `${P}${name}`, data, { token: customer.token });
const admin = (method: 'GET' | 'POST', name: string, data?: Record<string, unknown>) =>
  call(h, method, `${P}${name}BearerAdmin`, data, { token: operator.token });

async function purchase(): Promise<string> {
  const res = await call(
    h,
    'POST',
    '/api/v1/buyAirtime',
    { network: 'mtn', phone: '08031231234', amount: 200, pin: PIN },
    { token: customer.token },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().transaction.reference as string;
}
async function thread(body: string): Promise<string> {
  const t = (await asCustomer('POST', 'getOrCreateThreadBearerSupport')).json().thread;
  expect((await asCustomer('POST', 'sendSupportMessageBearerSupport', { threadId: t.id, body })).statusCode).toBe(200);
  return t.id as string;
}
async function report(reference: string): Promise<string> {
  const res = await asCustomer('POST', 'createTransactionReportBearerReports', {
    reference,
    category: 'not_delivered',
    description: 'The airtime never arrived on my line',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().report.id as string;
}
const auditOf = (action: string) =>
  rows<{ targets: { type: string; id: string }[]; target_ids: string[] }>(
    h.app.services.db,
    sql`SELECT targets, target_ids FROM audit_log WHERE action = ${action} AND outcome = 'ok' ORDER BY created_at`,
  );

beforeAll(async () => {
  h = await createHarness({ env: { ADMIN_EMAILS: 'admin@example.com' } });
  operator = await signIn(h, 'admin@example.com');
  customer = await buyer(h);
});
afterAll(async () => h?.close());

describe('report, purchase and thread (issue 44)', () => {
  it('show each other, and resolving the report closes its thread in one audited action', async () => {
    const reference = await purchase();
    const threadId = await thread(`Hello, my airtime ${reference.toLowerCase()} did not arrive`);
    const reportId = await report(reference);

    const kase = await admin('GET', 'adminGetPurchaseCase', { reference });
    expect(kase.statusCode, kase.body).toBe(200);
    expect(kase.json()).toMatchObject({
      userId: customer.id,
      reports: [{ id: reportId, reference, status: 'open' }],
      threads: [{ id: threadId, status: 'open' }],
    });
    const listed = (await admin('GET', 'adminListTransactionReports', { status: 'open' })).json().items;
    expect(listed.find((r: { id: string }) => r.id === reportId).thread).toEqual({ id: threadId, status: 'open' });
    const ofThread = await admin('GET', 'adminListThreadReports', { threadId });
    expect(ofThread.json().items.map((r: { id: string }) => r.id)).toEqual([reportId]);

    const resolved = await admin('POST', 'adminResolveTransactionReport', { id: reportId, note: 'Delivered late; confirmed with MTN.' });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json().closedThreadIds).toEqual([threadId]);
    const after = (await admin('GET', 'adminGetPurchaseCase', { reference })).json();
    expect(after.reports[0].status).toBe('resolved');
    expect(after.threads).toEqual([{ id: threadId, status: 'closed' }]);
    const audit = await auditOf('adminResolveTransactionReport');
    expect(audit).toHaveLength(1);
    expect(audit[0].targets).toEqual([
      { type: 'transaction_report', id: reportId },
      { type: 'support_thread', id: threadId },
    ]);
  });

  it('closing the thread resolves its reports (the customer is told), and leaves a report it does not name', async () => {
    const named = await purchase();
    const other = await purchase();
    const threadId = await thread(`Please check ${named}`);
    const namedReport = await report(named);
    const otherReport = await report(other);

    const closed = await admin('POST', 'adminCloseSupportThread', { threadId });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().resolvedReportIds).toEqual([namedReport]);
    const mine = (await asCustomer('GET', 'listMyReportsBearerReports')).json().items as {
      id: string;
      status: string;
      resolutionNote: string | null;
    }[];
    expect(mine.find((r) => r.id === namedReport)).toMatchObject({ status: 'resolved' });
    expect(mine.find((r) => r.id === otherReport)).toMatchObject({ status: 'open' });
    await h.app.services.jobs.drain();
    const inbox = (await asCustomer('GET', 'listNotificationsBearerNotifications')).json().items as {
      kind: string;
      data: { reportId?: string };
    }[];
    expect(inbox.some((n) => n.kind === 'report_resolved' && n.data?.reportId === namedReport)).toBe(true);

    const audit = await auditOf('adminCloseSupportThread');
    expect(audit).toHaveLength(1);
    expect(audit[0].target_ids).toEqual([threadId, namedReport]);
    // Already closed: a second close is refused and resolves nothing.
    expect((await admin('POST', 'adminCloseSupportThread', { threadId })).statusCode).toBe(409);
  });

  it('a reference no purchase has answers an empty case', async () => {
    const res = await admin('GET', 'adminGetPurchaseCase', { reference: 'vtu_NOSUCHPURCHASE' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, userId: null, reports: [], threads: [] });
  });
});
