import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createHarness, type Harness } from '../helpers/harness.js';

/**
 * Rate-limit counters in Redis carry REDIS_KEY_PREFIX: two deployments sharing one Redis (here two test databases)
 * do not spend each other's per-address budgets, while the instances of one deployment share them.
 */
const redisUrl = process.env.TEST_REDIS_URL;

const cooldown = (h: Harness, ip: string) =>
  h.app.inject({
    method: 'POST',
    url: '/_serverFn/getOtpCooldownPublicAuth',
    remoteAddress: ip,
    payload: { data: { email: 'prefix@example.com' } },
  });

describe('REDIS_KEY_PREFIX', () => {
  it('defaults to vtu-rl: and refuses characters a key pattern would read', () => {
    expect(loadConfig({}).redisKeyPrefix).toBe('vtu-rl:');
    expect(loadConfig({ REDIS_KEY_PREFIX: 'staging:rl:' }).redisKeyPrefix).toBe('staging:rl:');
    expect(() => loadConfig({ REDIS_KEY_PREFIX: 'a*b' })).toThrow(/REDIS_KEY_PREFIX/);
  });

  describe.skipIf(!redisUrl)(`two deployments on one Redis${redisUrl ? '' : ' (skipped: needs TEST_REDIS_URL)'}`, () => {
    let a: Harness;
    let b: Harness;
    beforeAll(async () => {
      a = await createHarness();
      b = await createHarness();
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it('keep their own per-address budgets, each under its own prefix', async () => {
      expect(a.config.redisKeyPrefix).not.toBe(b.config.redisKeyPrefix);
      const ip = '198.51.100.177';
      const first: number[] = [];
      for (let i = 0; i < 21; i++) first.push((await cooldown(a, ip)).statusCode);
      expect(first.slice(0, 20).every((s) => s === 200)).toBe(true);
      expect(first[20]).toBe(429);
      // The same address on the other deployment still has its whole budget.
      expect((await cooldown(b, ip)).statusCode).toBe(200);

      const redis = new Redis(redisUrl!);
      try {
        expect((await redis.keys(`${a.config.redisKeyPrefix}*`)).length).toBeGreaterThan(0);
      } finally {
        redis.disconnect();
      }
    });
  });
});
