import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DAY } from '../../src/kernel/clock.js';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { setKycTier } from '../helpers/factories.js';
import { freshNin, freshPhone, kycUser, registerNin, upload } from '../kyc/factories.js';

/**
 * LookupNin was a free NIN oracle. A Tier 0 account (free to make) learned whether any
 * 11-digit NIN exists and, with its own profile name set to a guess, whether the holder's name matched. Now it needs
 * Tier 1, a user has a few look-ups a day (renaming the profile buys none), and the one answer, "matches your
 * profile", is the same for an unknown NIN and for someone else's.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const lookupNin = (u: TestUser, nin: string) => call(h, 'POST', '/_serverFn/lookupNinBearerKYC', { nin }, { token: u.token });
const rename = (u: TestUser, fullName: string) =>
  call(h, 'POST', '/_serverFn/updateProfileBearerSettings', { fullName }, { token: u.token });

async function tier1(fullName = 'Tunde Bakare') {
  const u = await kycUser(h, { fullName });
  await setKycTier(h, u.id, 1);
  return u;
}

describe('NIN oracle (lookupNin)', () => {
  it('a Tier 0 account is refused with KYC_TIER_REQUIRED and no look-up is made', async () => {
    const nin = freshNin();
    await registerNin(h, { nin, firstName: 'Chioma', lastName: 'Eze', phone: freshPhone() });
    const u = await kycUser(h, { fullName: 'Chioma Eze' });
    const res = await lookupNin(u, nin);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('KYC_TIER_REQUIRED');
    expect(res.body).not.toMatch(/found|match/i);
  });

  it('20 parallel look-ups: exactly the daily quota passes, the rest are RATE_LIMITED with a Retry-After', async () => {
    const u = await tier1();
    const res = await Promise.all(Array.from({ length: 20 }, () => lookupNin(u, freshNin())));
    expect(res.filter((r) => r.statusCode === 200)).toHaveLength(5);
    const refused = res.filter((r) => r.statusCode !== 200);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.statusCode).toBe(429);
      expect(r.json().error.code).toBe('RATE_LIMITED');
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('renaming the profile buys no look-ups; the quota comes back the next Lagos day', async () => {
    const u = await tier1('Ada Obi');
    for (let i = 0; i < 5; i++) {
      expect((await rename(u, `Guess Number${String.fromCharCode(97 + i)}`)).statusCode).toBe(200);
      expect((await lookupNin(u, freshNin())).statusCode).toBe(200);
    }
    expect((await rename(u, 'Another Guess')).statusCode).toBe(200);
    const over = await lookupNin(u, freshNin());
    expect(over.statusCode).toBe(429);
    const wait = Number(over.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(DAY / 1000);
    h.clock.advance(wait * 1000);
    const again = await signIn(h, u.email); // access tokens live 15 minutes
    expect((await lookupNin(again, freshNin())).statusCode).toBe(200);
  });

  it('submitNinKyc asks the provider too, so it shares the quota', async () => {
    const u = await tier1('Ada Obi');
    for (let i = 0; i < 5; i++) expect((await lookupNin(u, freshNin())).statusCode).toBe(200);
    const slipPath = await upload(h, u.token, 'pdf');
    const submit = await call(h, 'POST', '/_serverFn/submitNinKycBearerKYC', { nin: freshNin(), slipPath }, { token: u.token });
    expect(submit.statusCode).toBe(429);
    expect(submit.json().error.code).toBe('RATE_LIMITED');
  });

  it('the answer does not separate "NIN unknown" from "name differs" (nor "phone differs")', async () => {
    const u = await tier1('Tunde Bakare');
    const someoneElse = freshNin();
    await registerNin(h, { nin: someoneElse, firstName: 'Ngozi', lastName: 'Okafor', phone: freshPhone() });
    const samePhoneOtherName = freshNin();
    await registerNin(h, { nin: samePhoneOtherName, firstName: 'Ngozi', lastName: 'Okafor', phone: u.phone! });
    const sameNameOtherPhone = freshNin();
    await registerNin(h, { nin: sameNameOtherPhone, firstName: 'Tunde', lastName: 'Bakare', phone: freshPhone() });
    const own = freshNin();
    await registerNin(h, { nin: own, firstName: 'Tunde', lastName: 'Bakare', phone: u.phone! });

    const unknown = await lookupNin(u, freshNin());
    expect(unknown.statusCode).toBe(200);
    for (const nin of [someoneElse, samePhoneOtherName, sameNameOtherPhone]) {
      const r = await lookupNin(u, nin);
      expect(r.statusCode).toBe(200);
      expect(r.body).toBe(unknown.body);
    }
    expect(unknown.json()).toEqual({ ok: true, matchesProfile: false });
    // The caller's own NIN (its name and the caller's verified phone) still says so: what the Tier 2 flow needs.
    expect((await lookupNin(u, own)).json()).toEqual({ ok: true, matchesProfile: true });
    const counted = (await h.app.services.db.execute(
      sql`SELECT sum(used)::int AS n FROM kyc_nin_lookups WHERE user_id = ${u.id}`,
    )) as unknown as { rows: { n: number }[] };
    expect(counted.rows[0].n).toBe(5);
  });
});
