import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { call, createHarness, expectLedgerOk, signIn, type Harness } from '../helpers/harness.js';
import { user } from '../helpers/factories.js';

// Issue 30: a frozen customer's scheduled purchases pause (the slot is skipped, not failed) and run again once an
// operator unfreezes the account.
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

async function runWorkersAt(iso: string) {
  h.clock.set(iso);
  await h.app.services.jobs.tickCrons();
  await h.app.services.jobs.drain();
}

describe('scheduled purchases of a frozen customer', () => {
  it('skip while frozen without counting a failure, and run after the unfreeze', async () => {
    h.clock.set('2026-05-10T09:00:00Z');
    const u = await user(h, { tier: 1, pin: '1234', naira: 1000 });
    const saved = await call(
      h,
      'POST',
      '/_serverFn/upsertScheduleBearerSchedules',
      { service: 'airtime', network: 'mtn', phone: '08031234567', amount: 200, frequency: 'daily', time: '11:30', pin: '1234' },
      { token: u.token },
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const scheduleId = saved.json().schedule.id;
    const admin = await signIn(h, 'admin@example.com');
    const frozen = await call(
      h,
      'POST',
      '/_serverFn/adminFreezeCustomerBearerAdmin',
      { userId: u.id, reason: 'fraud review' },
      { token: admin.token },
    );
    expect(frozen.statusCode, frozen.body).toBe(200);

    await runWorkersAt('2026-05-10T10:30:30Z');
    const runs = () =>
      rows<{ status: string; error_code: string | null }>(
        h.app.services.db,
        sql`SELECT status, error_code FROM schedule_runs WHERE schedule_id = ${scheduleId} ORDER BY slot`,
      );
    expect(await runs()).toEqual([{ status: 'skipped', error_code: 'ACCOUNT_FROZEN' }]);
    const s = (
      await rows<{ active: boolean; consecutive_failures: number }>(
        h.app.services.db,
        sql`SELECT active, consecutive_failures FROM schedules WHERE id = ${scheduleId}`,
      )
    )[0];
    expect(s).toEqual({ active: true, consecutive_failures: 0 });
    const bought = async () =>
      (await rows<{ n: number }>(h.app.services.db, sql`SELECT count(*)::int AS n FROM vtu_transactions WHERE user_id = ${u.id}`))[0].n;
    expect(await bought()).toBe(0);
    const failedNotices = await rows(
      h.app.services.db,
      sql`SELECT 1 FROM notifications WHERE user_id = ${u.id} AND kind = 'schedule_failed'`,
    );
    expect(failedNotices).toHaveLength(0);

    const admin2 = await signIn(h, 'admin@example.com');
    const un = await call(
      h,
      'POST',
      '/_serverFn/adminUnfreezeCustomerBearerAdmin',
      { userId: u.id, reason: 'cleared' },
      { token: admin2.token },
    );
    expect(un.statusCode, un.body).toBe(200);
    await runWorkersAt('2026-05-11T10:30:30Z');
    expect((await runs()).map((r) => r.status)).toEqual(['skipped', 'success']);
    expect(await bought()).toBe(1);
    expect(Number((await h.app.services.ledger.userBalances(h.app.services.db, u.id)).wallet) / 100).toBe(800);
    await expectLedgerOk(h);
  });
});
