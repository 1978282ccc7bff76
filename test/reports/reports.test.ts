import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { call, createHarness, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';

const P = '/_serverFn/';
let h: Harness;
let admin: TestUser;

beforeAll(async () => {
  h = await createHarness();
  admin = await signIn(h, 'admin@example.com');
});
afterAll(async () => h?.close());

const report = (u: TestUser, reference: string, extra: Record<string, unknown> = {}) =>
  call(
    h,
    'POST',
    `${P}createTransactionReportBearerReports`,
    { reference, category: 'wrong_amount', description: 'I was charged the wrong amount', ...extra },
    { token: u.token },
  );
const lastLedgerRef = async (u: TestUser) =>
  (await call(h, 'GET', `${P}getWalletStateBearerWallet`, undefined, { token: u.token })).json().log[0].reference as string;

describe('transaction reports', () => {
  it('reports a transaction of the caller once while open; operators resolve with a note and the user is notified', async () => {
    const u = await signIn(h);
    await fundWallet(h, u.id, 2500);
    const ref = await lastLedgerRef(u);
    const res = await report(u, ref);
    expect(res.statusCode).toBe(200);
    const r = res.json().report;
    expect(r).toMatchObject({
      reference: ref,
      transactionType: 'adjustment',
      amount: 2500,
      category: 'wrong_amount',
      status: 'open',
      resolutionNote: null,
    });
    expect((await report(u, ref)).statusCode).toBe(409);

    const mine = await call(h, 'GET', `${P}listMyReportsBearerReports`, {}, { token: u.token });
    expect(mine.json().items.map((x: { id: string }) => x.id)).toEqual([r.id]);

    const queue = await call(
      h,
      'GET',
      `${P}adminListTransactionReportsBearerAdmin`,
      { status: 'open', userId: u.id },
      { token: admin.token },
    );
    expect(queue.json().items).toEqual([expect.objectContaining({ id: r.id, userId: u.id })]);
    const resolved = await call(
      h,
      'POST',
      `${P}adminResolveTransactionReportBearerAdmin`,
      { id: r.id, note: 'The amount was correct; see the receipt.' },
      { token: admin.token },
    );
    expect(resolved.json().report).toMatchObject({ status: 'resolved', resolutionNote: 'The amount was correct; see the receipt.' });
    expect(
      (await call(h, 'POST', `${P}adminResolveTransactionReportBearerAdmin`, { id: r.id, note: 'again' }, { token: admin.token }))
        .statusCode,
    ).toBe(409);
    const notes = await rows<{ kind: string; body: string }>(
      h.app.services.db,
      sql`SELECT kind, body FROM notifications WHERE user_id = ${u.id}`,
    );
    expect(notes).toEqual([{ kind: 'report_resolved', body: 'The amount was correct; see the receipt.' }]);
    // Once resolved, the same transaction can be reported again.
    expect((await report(u, ref, { category: 'other' })).statusCode).toBe(200);
  });

  it("another user's transaction is 404; junk is 400; operators only", async () => {
    const u = await signIn(h);
    const other = await signIn(h);
    await fundWallet(h, u.id, 100);
    const ref = await lastLedgerRef(u);
    expect((await report(other, ref)).statusCode).toBe(404);
    expect((await report(u, 'vtu_nothing_here')).statusCode).toBe(404);
    expect((await report(u, ref, { category: 'angry' })).statusCode).toBe(400);
    expect((await report(u, ref, { description: 'short' })).statusCode).toBe(400);
    expect((await call(h, 'GET', `${P}adminListTransactionReportsBearerAdmin`, {}, { token: u.token })).statusCode).toBe(403);
  });
});

describe('POST /api/public/report-issue', () => {
  // Random client addresses: with TEST_REDIS_URL the rate-limit counters outlive a test run.
  const octet = () => Math.floor(Math.random() * 250) + 1;
  const ips = Array.from({ length: 4 }, () => `10.${octet()}.${octet()}.${octet()}`);
  const post = (payload: unknown, ip = ips[0], headers: Record<string, string> = {}) =>
    h.app.inject({
      method: 'POST',
      url: '/api/public/report-issue',
      payload: payload as object,
      remoteAddress: ip,
      headers: { 'content-type': 'application/json', ...headers },
    });

  it('stores a validated report without a token; operators list it', async () => {
    const res = await post(
      { message: 'TypeError: x is undefined', stack: 'at App (app.js:1:2)', url: 'https://app.example/wallet', appVersion: '2.3.1' },
      ips[0],
      { 'user-agent': 'Mozilla/5.0 test' },
    );
    expect(res.statusCode).toBe(200);
    const id = res.json().id;
    const env = await post({ data: { message: 'Envelope works too' } }, ips[0]);
    expect(env.statusCode).toBe(200);
    const list = await call(h, 'GET', `${P}adminListIssueReportsBearerAdmin`, {}, { token: admin.token });
    const item = list.json().items.find((x: { id: string }) => x.id === id);
    expect(item).toMatchObject({
      message: 'TypeError: x is undefined',
      appVersion: '2.3.1',
      userAgent: 'Mozilla/5.0 test',
      url: 'https://app.example/wallet',
    });
    expect(item.reporter).toMatch(/^[0-9a-f]{32}$/); // a salted hash, never the raw IP
  });

  it('refuses bad bodies, oversized bodies and floods', async () => {
    expect((await post({ message: '' }, ips[1])).statusCode).toBe(400);
    expect((await post({ message: 'x', extra: 1 }, ips[1])).statusCode).toBe(400);
    expect((await post({ message: 'x', stack: 5 }, ips[1])).statusCode).toBe(400);
    expect((await post('[1,2]', ips[1])).statusCode).toBe(400);
    const big = await post({ message: 'x', stack: 'y'.repeat(20_000) }, ips[2]);
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    const text = await h.app.inject({
      method: 'POST',
      url: '/api/public/report-issue',
      payload: 'hello',
      remoteAddress: ips[2],
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.statusCode).toBe(400); // a text body is not a JSON object

    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await post({ message: `flood ${i}` }, ips[3])).statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});
