import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { call, createHarness, expectLedgerOk, usingPostgres, type Harness } from '../helpers/harness.js';
import { buyer, mtn, PIN, reconcile, VTU_ENV, walletBalance } from './helpers.js';

/** Money under concurrency (run also with TEST_DATABASE_URL: real row locks on PostgreSQL). */
let h: Harness;
beforeAll(async () => {
  // A roomy adapter timeout: two shared cores under 100 parallel requests must not turn this into a timeout test.
  h = await createHarness({ env: { ...VTU_ENV, VTU_PROVIDER_TIMEOUT_MS: '5000', VTU_SANDBOX_HOLD_MS: '5500' } });
});
afterAll(async () => h.close());

it(`100 concurrent purchases on one wallet never overdraw it (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, async () => {
  const u = await buyer(h, 30_000);
  const results = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      call(
        h,
        'POST',
        '/api/v1/buyAirtime',
        { network: 'mtn', phone: mtn(String(1000 + i).padStart(4, '0')), amount: 500, pin: PIN },
        { token: u.token },
      ),
    ),
  );
  const ok = results.filter((r) => r.statusCode === 200);
  const refused = results.filter((r) => r.statusCode !== 200);
  expect(ok).toHaveLength(60);
  for (const r of refused) expect(r.json().error.code).toBe('INSUFFICIENT_FUNDS');
  // Any answer slower than the timeout is still processing and settles on the next requery.
  await reconcile(h, 12_000);
  const statuses = await rows<{ status: string }>(h.app.services.db, sql`SELECT status FROM vtu_transactions WHERE user_id = ${u.id}`);
  expect(statuses.every((s) => s.status === 'success')).toBe(true);
  expect(await walletBalance(h, u.id)).toBe(0);
  const n = await rows<{ n: number }>(h.app.services.db, sql`SELECT count(*)::int AS n FROM vtu_transactions WHERE user_id = ${u.id}`);
  expect(n[0].n).toBe(60);
  const delivered = await rows<{ n: number }>(
    h.app.services.db,
    sql`SELECT count(*)::int AS n FROM sandbox_vtu_orders o JOIN vtu_transactions t ON t.request_id = o.request_id WHERE t.user_id = ${u.id} AND o.status = 'delivered'`,
  );
  expect(delivered[0].n).toBe(60);
  await expectLedgerOk(h);
});

it('reconciliation workers racing each other and an operator requery refund each failure exactly once', async () => {
  const u = await buyer(h, 10_000);
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    const r = await call(
      h,
      'POST',
      '/api/v1/buyAirtime',
      { network: 'mtn', phone: `0806${String(i).padStart(3, '0')}3333`, amount: 1000, pin: PIN },
      { token: u.token },
    );
    ids.push(r.json().transaction.id);
  }
  expect(await walletBalance(h, u.id)).toBe(0);
  h.clock.advance(11_000);
  const admin = await (await import('../helpers/harness.js')).signIn(h, 'admin@example.com');
  await Promise.all([
    h.app.services.vtu.reconcileDue(),
    h.app.services.vtu.reconcileDue(),
    ...ids.map((id) => call(h, 'POST', '/_serverFn/adminRequeryVtuTransactionBearerAdmin', { id }, { token: admin.token })),
  ]);
  expect(await walletBalance(h, u.id)).toBe(10_000);
  const refunds = await rows<{ n: number }>(
    h.app.services.db,
    sql`SELECT count(*)::int AS n FROM ledger_transactions l JOIN vtu_transactions t ON l.reference = 'vtu_refund_' || t.reference WHERE t.user_id = ${u.id}`,
  );
  expect(refunds[0].n).toBe(10);
  await expectLedgerOk(h);
});
