import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { dashboardStatements } from '../../src/modules/vtu/read-model.js';
import { MINUTE, SECOND } from '../../src/kernel/clock.js';
import { call, createHarness, expectLedgerOk, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, PIN, user, walletBalance } from '../helpers/factories.js';
import { createIntent, sandboxPay } from '../payments/helpers.js';

let h: Harness;
let admin: TestUser;
let customer: TestUser;
const op = (name: string) => `/_serverFn/${name}BearerAdmin`;
const get = async (name: string, input?: Record<string, unknown>) => {
  const res = await call(h, 'GET', op(name), input, { token: admin.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const buy = async (last4: string) => {
  const res = await call(
    h,
    'POST',
    '/api/v1/buyAirtime',
    { network: 'mtn', phone: `0803123${last4}`, amount: 500, pin: PIN },
    { token: customer.token },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().transaction as { id: string; status: string };
};

beforeAll(async () => {
  h = await createHarness({ env: { VTU_STUCK_AFTER_MS: String(10 * MINUTE) } });
  // 10:00 Lagos on 2026-01-15.
  h.clock.set('2026-01-15T09:00:00Z');
  admin = await signIn(h, 'admin@example.com');
  customer = await buyer(h);
});
afterAll(async () => h.close());

describe('operator dashboard (issue 30)', () => {
  let pending: { id: string };
  it('volume: count and volume by service, provider and status for today, and nothing on another day', async () => {
    await buy('1234');
    await buy('1234');
    await buy('1111'); // a definite failure, refunded
    pending = await buy('2222'); // pending until a requery
    const v = await get('adminDashboardVolume');
    expect(v.from).toBe('2026-01-15');
    expect(v.to).toBe('2026-01-15');
    expect(v.total).toEqual({ count: 4, volume: 2000 });
    expect(v.byService).toEqual([{ service: 'airtime', count: 4, volume: 2000 }]);
    expect(Object.fromEntries(v.byStatus.map((s: { status: string; count: number }) => [s.status, s.count]))).toEqual({
      success: 2,
      failed: 1,
      processing: 1,
    });
    expect(v.byProvider.reduce((n: number, p: { count: number }) => n + p.count, 0)).toBe(4);
    const yesterday = await get('adminDashboardVolume', { from: '2026-01-14', to: '2026-01-14' });
    expect(yesterday.total).toEqual({ count: 0, volume: 0 });
  });

  it('providers: success rate over final purchases and latency percentiles', async () => {
    const p = await get('adminDashboardProviders', { from: '2026-01-15' });
    const total = p.items.reduce(
      (n: number, i: { succeeded: number; failed: number; processing: number }) => n + i.succeeded + i.failed + i.processing,
      0,
    );
    expect(total).toBe(4);
    for (const i of p.items) {
      if (i.succeeded + i.failed) expect(i.successRate).toBeCloseTo(i.succeeded / (i.succeeded + i.failed), 4);
      else expect(i.successRate).toBeNull();
      if (i.succeeded + i.failed) expect(i.latencySeconds.p50).toBeGreaterThanOrEqual(0);
    }
  });

  it('floats: ledger balance, burn per day over 7 days and days of headroom', async () => {
    const f = await get('adminDashboardFloats');
    expect(f.burnDays).toBe(7);
    expect(f.items.map((i: { provider: string }) => i.provider)).toEqual(['a', 'b', 'c', 'd']);
    const wholesale = await rows<{ provider: string; w: string }>(
      h.app.services.db,
      sql`SELECT provider, sum(wholesale)::text AS w FROM vtu_transactions WHERE status = 'success' GROUP BY provider`,
    );
    expect(wholesale.length).toBeGreaterThan(0);
    for (const w of wholesale) {
      const item = f.items.find((i: { provider: string }) => i.provider === w.provider);
      expect(item.burnPerDay).toBeCloseTo(Math.floor(Number(w.w) / 7) / 100, 2);
      expect(item.daysOfHeadroom).toBeCloseTo(item.balance / item.burnPerDay, 0);
    }
    const ledgerFloat = async (p: string) =>
      Number(-(await h.app.services.ledger.balance(h.app.services.db, { system: `provider_float:${p}` }))) / 100;
    for (const item of f.items) expect(item.balance).toBe(await ledgerFloat(item.provider));
    const pool = Number(-(await h.app.services.ledger.balance(h.app.services.db, { system: 'collections' }))) / 100;
    expect(f.collections.balance).toBe(pool || 0);
    // The balance snapshots move forward on their schedule; the answer is the same, read from the snapshot.
    h.clock.advance(6 * MINUTE);
    await h.app.services.jobs.enqueue(h.app.services.db, 'console.balance-snapshots', {});
    await h.app.services.jobs.drain();
    const snaps = await rows<{ n: number }>(h.app.services.db, sql`SELECT count(*)::int AS n FROM account_balance_snapshots`);
    expect(snaps[0]?.n).toBeGreaterThan(0);
    const after = await get('adminDashboardFloats');
    for (const item of after.items) expect(item.balance).toBe(await ledgerFloat(item.provider));
    h.clock.advance(-6 * MINUTE);
  });

  it('queues: stuck purchases, job lag, dead letters, KYC queue', async () => {
    const before = await get('adminDashboardQueues');
    expect(before.stuckPurchases).toMatchObject({ count: 0, stuckAfterSeconds: 600 });
    h.clock.advance(11 * MINUTE);
    // A due job nobody ran yet, and a dead letter.
    await h.app.services.jobs.enqueue(
      h.app.services.db,
      'outbox.email',
      { to: 'x@example.com', subject: 's', text: 't' },
      { delayMs: -30 * SECOND },
    );
    // It died (its last attempt failed) 5 minutes ago.
    await h.app.services.db.execute(
      sql`UPDATE jobs SET status = 'dead', updated_at = ${new Date(h.clock.now().getTime() - 5 * MINUTE)}
          WHERE id = (SELECT max(id) FROM jobs WHERE queue = 'outbox.email')`,
    );
    await h.app.services.jobs.enqueue(
      h.app.services.db,
      'outbox.email',
      { to: 'y@example.com', subject: 's', text: 't' },
      { delayMs: -30 * SECOND },
    );
    const q = await get('adminDashboardQueues');
    expect(q.stuckPurchases.count).toBe(1);
    expect(q.stuckPurchases.oldestAgeSeconds).toBeGreaterThanOrEqual(660);
    expect(q.deadLetters.byQueue).toContainEqual({ queue: 'outbox.email', count: 1, oldestAgeSeconds: 300 });
    expect(q.deadLetters.oldestAgeSeconds).toBeGreaterThanOrEqual(300);
    expect(q.jobs.due).toBeGreaterThanOrEqual(1);
    expect(q.jobs.lagSeconds).toBeGreaterThanOrEqual(30);
    expect(q.kyc).toEqual({ pending: 0, oldestAgeSeconds: null, byTier: [] });
    expect(q.webhooks.waiting).toBe(0);
  });

  it('refuses a range over 92 days and a malformed date', async () => {
    const r = await call(h, 'GET', op('adminDashboardVolume'), { from: '2025-01-01', to: '2025-12-31' }, { token: admin.token });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.message).toContain('92');
    expect((await call(h, 'GET', op('adminDashboardVolume'), { from: '15-01-2026' }, { token: admin.token })).statusCode).toBe(400);
  });

  it('the purchase statements are index-only scans of the range (no scan of the transactions table)', async () => {
    const start = new Date('2026-01-14T23:00:00Z');
    const end = new Date('2026-01-15T23:00:00Z');
    for (const [name, statement] of Object.entries(dashboardStatements)) {
      const plan = await h.app.services.db.transaction(async (tx) => {
        // A table this small is cheaper to read whole; the planner is told not to, to show the index answers alone.
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
        return rows<{ 'QUERY PLAN': string }>(tx, sql`EXPLAIN ${statement(start, end)}`);
      });
      const text = plan.map((p) => p['QUERY PLAN']).join('\n');
      expect(text, name).toContain('Index Only Scan using vtu_transactions_dashboard_idx');
      expect(text, name).not.toContain('Seq Scan on vtu_transactions');
    }
  });

  it('bulk requery as a job: the given ids, unknown ones counted, progress to the end', async () => {
    h.clock.advance(6 * SECOND);
    const unknown = randomUUID();
    const started = await call(h, 'POST', op('adminStartBulkRequery'), { ids: [pending.id, unknown] }, { token: admin.token });
    expect(started.statusCode, started.body).toBe(200);
    const { jobId } = started.json();
    const queued = await get('adminGetJob', { jobId });
    expect(queued).toMatchObject({ status: 'queued', kind: 'bulk_requery', progress: { done: 0, total: 0 } });
    // A second start while it is open answers the same job.
    expect((await call(h, 'POST', op('adminStartBulkRequery'), {}, { token: admin.token })).json().jobId).toBe(jobId);
    await h.app.services.jobs.drain();
    const done = await get('adminGetJob', { jobId });
    expect(done.status).toBe('done');
    expect(done.progress).toEqual({ done: 2, total: 2 });
    expect(done.result).toEqual({ checked: 2, statuses: { success: 1 }, notFound: 1, errors: 0 });
    expect(done.downloadUrl).toBeUndefined();
    const q = await get('adminDashboardQueues');
    expect(q.stuckPurchases.count).toBe(0);
  });

  it('reconciliation as a job: settles paid top-ups no webhook brought, one open job at a time', async () => {
    const u = await user(h);
    const intents = [];
    for (const amount of [700, 800, 900]) {
      const i = await createIntent(h, u, amount);
      await sandboxPay(h, { reference: i.reference, outcome: 'success', webhook: false });
      intents.push(i);
    }
    const first = await call(h, 'POST', op('adminStartReconciliation'), {}, { token: admin.token });
    expect(first.statusCode, first.body).toBe(200);
    const again = await call(h, 'POST', op('adminStartReconciliation'), {}, { token: admin.token });
    expect(again.json().jobId).toBe(first.json().jobId);
    await h.app.services.jobs.drain();
    const job = await get('adminGetJob', { jobId: first.json().jobId });
    expect(job.status).toBe('done');
    expect(job.result.settled).toBe(3);
    expect(job.progress.done).toBe(job.progress.total);
    expect(job.progress.total).toBeGreaterThanOrEqual(3);
    expect(await walletBalance(h, u.id)).toBe(2400);
    // Finished: a new start makes a new job.
    const next = await call(h, 'POST', op('adminStartReconciliation'), {}, { token: admin.token });
    expect(next.json().jobId).not.toBe(first.json().jobId);
    await h.app.services.jobs.drain();
    expect(await walletBalance(h, u.id)).toBe(2400);
    await expectLedgerOk(h);
  });

  it('operators list every job; a customer gets 403', async () => {
    const list = await get('adminListJobs', { status: 'done' });
    expect(list.items.length).toBeGreaterThanOrEqual(3);
    expect((await call(h, 'GET', op('adminListJobs'), {}, { token: customer.token })).statusCode).toBe(403);
    expect((await call(h, 'GET', op('adminDashboardQueues'), {}, { token: customer.token })).statusCode).toBe(403);
  });
});
