import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { DEFAULT_SETTINGS } from '../../src/modules/growth/settings.js';

let h: Harness;
let admin: TestUser;
let user: TestUser;
beforeAll(async () => {
  h = await createHarness();
  admin = await signIn(h, 'admin@example.com');
  user = await signIn(h);
});
afterAll(async () => h?.close());

const OPS: [method: 'GET' | 'POST', path: string][] = [
  ['GET', '/_serverFn/getMyReferralStatusBearerGrowth'],
  ['GET', '/_serverFn/getPendingMilestonesBearerGrowth'],
  ['POST', '/_serverFn/ackMilestoneBearerGrowth'],
  ['GET', '/_serverFn/getCheckinStatusBearerGrowth'],
  ['POST', '/_serverFn/claimCheckinBearerGrowth'],
  ['POST', '/_serverFn/withdrawCheckinBearerGrowth'],
  ['GET', '/_serverFn/listSavingsLocksBearerSavings'],
  ['POST', '/_serverFn/createSavingsLockBearerSavings'],
  ['POST', '/_serverFn/breakSavingsLockBearerSavings'],
  ['GET', '/_serverFn/getLoanOverviewBearerLoans'],
  ['POST', '/_serverFn/takeLoanBearerLoans'],
  ['POST', '/_serverFn/repayLoanBearerLoans'],
  ['GET', '/_serverFn/adminGetGrowthSettingsBearerAdmin'],
  ['POST', '/_serverFn/adminUpdateGrowthSettingsBearerAdmin'],
  ['GET', '/_serverFn/adminListLoansBearerAdmin'],
];

describe('auth on every growth, savings and loan operation', () => {
  it('answers 401 without a token and with a bad one', async () => {
    for (const [method, path] of OPS) {
      const none = await call(h, method, path);
      expect(none.statusCode, path).toBe(401);
      const bad = await call(h, method, path, undefined, { token: 'not.a.token' });
      expect(bad.statusCode, path).toBe(401);
    }
  });

  it('keeps operator operations to operators (403)', async () => {
    expect((await call(h, 'GET', '/_serverFn/adminGetGrowthSettingsBearerAdmin', undefined, { token: user.token })).statusCode).toBe(403);
    const res = await call(h, 'POST', '/_serverFn/adminUpdateGrowthSettingsBearerAdmin', { referralBonus: 100000 }, { token: user.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
  });

  it('never answers 500 on junk input', async () => {
    const junk = [
      { amount: 'x' },
      { amount: -1, days: 'ten' },
      { lockId: 'nope' },
      { threshold: { a: 1 } },
      { amount: 1e300 },
      { nested: [1, 2] },
    ];
    for (const [method, path] of OPS) {
      for (const j of junk) {
        const r = await call(h, method, path, j, { token: method === 'GET' || !path.includes('Admin') ? user.token : admin.token });
        expect(r.statusCode, `${path} ${JSON.stringify(j)}`).toBeLessThan(500);
      }
    }
  });
});

describe('operator settings', () => {
  it('reads the documented defaults', async () => {
    const res = await call(h, 'GET', '/_serverFn/adminGetGrowthSettingsBearerAdmin', undefined, { token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().settings).toEqual(DEFAULT_SETTINGS);
  });

  it('updates a rule, answers the merged settings and writes the audit log', async () => {
    const res = await call(
      h,
      'POST',
      '/_serverFn/adminUpdateGrowthSettingsBearerAdmin',
      { loanFeePct: 7.5, referralBonus: 250 },
      { token: admin.token },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().settings).toMatchObject({ loanFeePct: 7.5, referralBonus: 250, checkinReward: DEFAULT_SETTINGS.checkinReward });
    const read = await call(h, 'GET', '/_serverFn/adminGetGrowthSettingsBearerAdmin', undefined, { token: admin.token });
    expect(read.json().settings.loanFeePct).toBe(7.5);
    const audit = (await h.app.services.db.execute(
      sql`SELECT actor_id::text AS actor_id, before_state, after_state FROM audit_log
          WHERE action = 'adminUpdateGrowthSettings' AND outcome = 'ok' AND after_state->>'loanFeePct' = '7.5'`,
    )) as unknown as { rows: { actor_id: string; before_state: Record<string, unknown>; after_state: Record<string, unknown> }[] };
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].actor_id).toBe(admin.id);
    expect(audit.rows[0].before_state.loanFeePct).toBe(DEFAULT_SETTINGS.loanFeePct);
    expect(audit.rows[0].after_state.loanFeePct).toBe(7.5);
    // The new bonus applies to the next rule evaluation.
    expect(
      (await call(h, 'GET', '/_serverFn/getMyReferralStatusBearerGrowth', undefined, { token: user.token })).json().bonusPerInvitee,
    ).toBe(250);
  });

  it('refuses invalid settings with 400 and changes nothing', async () => {
    const cases = [
      {},
      { loanFeePct: -1 },
      { loanFeePct: 'five' },
      { unknownRule: 1 },
      { checkinReward: 1.001 },
      { loanTermDays: 0 },
      {
        milestones: [
          { threshold: 2, bonus: 10 },
          { threshold: 2, bonus: 20 },
        ],
      },
      { savingsMinAmount: 6_000_000 }, // above savingsMaxAmount
      { loansEnabled: 'yes' },
    ];
    for (const c of cases) {
      const r = await call(h, 'POST', '/_serverFn/adminUpdateGrowthSettingsBearerAdmin', c, { token: admin.token });
      expect(r.statusCode, JSON.stringify(c)).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
    }
    const read = await call(h, 'GET', '/_serverFn/adminGetGrowthSettingsBearerAdmin', undefined, { token: admin.token });
    expect(read.json().settings.savingsMinAmount).toBe(DEFAULT_SETTINGS.savingsMinAmount);
  });
});

describe('settings kept in memory', () => {
  const get = () => h.app.services.growthSettings.get();

  it('serves one frozen copy while nothing changes, and a write made outside this instance is in force at the next read', async () => {
    const first = await get();
    expect(await get()).toBe(first); // kept: no read per purchase
    expect(Object.isFrozen(first) && Object.isFrozen(first.milestones)).toBe(true);
    // Another instance (or an operator in psql) writes the table: the trigger's message drops this instance's copy.
    await h.app.services.db.execute(sql`INSERT INTO growth_settings (key, value, updated_at) VALUES ('checkinReward', '7.5'::jsonb, now())
                                         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`);
    await expect.poll(async () => (await get()).checkinReward, { timeout: 5000, interval: 20 }).toBe(7.5);
    await h.app.services.db.execute(sql`DELETE FROM growth_settings WHERE key = 'checkinReward'`);
    await expect.poll(async () => (await get()).checkinReward, { timeout: 5000, interval: 20 }).toBe(DEFAULT_SETTINGS.checkinReward);
  });

  it('keeps nothing while the change feed is down, so a missed message cannot leave a stale copy', async () => {
    const store = h.app.services.growthSettings;
    try {
      store.attach(() => false);
      expect(await get()).not.toBe(await get());
    } finally {
      store.attach(h.app.services.growthSettingsChanges.live);
    }
    const kept = await get();
    expect(await get()).toBe(kept);
  });
});
