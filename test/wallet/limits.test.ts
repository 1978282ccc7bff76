import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/kernel/clock.js';
import { createWalletLimits, DEFAULT_TIER_LIMITS, parseTierLimits } from '../../src/modules/wallet/limits.js';
import { balanceCapSql } from '../../src/modules/payments/settlement.js';
import { createHarness, type Harness } from '../helpers/harness.js';

/** The tier balance caps in SQL (a credit's cap flag is decided inside its posting statement) agree with limitsFor. */
describe('wallet limits: balance caps in SQL', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h?.close());

  const capsInSql = async (limits: ReturnType<typeof createWalletLimits>, tiers: number[]) => {
    const r = await h.app.services.db.execute(
      sql`SELECT t.tier, ${balanceCapSql(limits.balanceCaps(), sql`t.tier`)}::text AS cap FROM unnest(${`{${tiers.join(',')}}`}::int[]) AS t(tier) ORDER BY t.tier`,
    );
    return (r.rows as { tier: number; cap: string | null }[]).map((x) => (x.cap === null ? null : BigInt(x.cap)));
  };

  it('matches limitsFor for every tier, unknown tiers falling back to tier 0, with the default and a configured table', async () => {
    const tiers = [0, 1, 2, 3, 4, 7];
    const configured = parseTierLimits(
      JSON.stringify({ 2: { dailyOutflow: 300_000, balanceCap: 800_000 }, 4: { dailyOutflow: 1, balanceCap: 150_000 } }),
    );
    for (const table of [DEFAULT_TIER_LIMITS, configured]) {
      const limits = createWalletLimits({ clock: systemClock, limits: table });
      expect(await capsInSql(limits, tiers)).toEqual(tiers.map((t) => limits.limitsFor(t).balanceCap));
    }
    expect(createWalletLimits({ clock: systemClock, limits: DEFAULT_TIER_LIMITS }).lowestBalanceCap()).toBe(30_000_000n);
    expect(createWalletLimits({ clock: systemClock, limits: configured }).lowestBalanceCap()).toBe(15_000_000n);
    expect(createWalletLimits({ clock: systemClock, limits: { 0: { dailyOutflow: 1n, balanceCap: null } } }).lowestBalanceCap()).toBeNull();
  });
});
