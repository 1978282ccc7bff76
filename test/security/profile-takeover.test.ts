import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, emailGrant, signIn, type Harness } from '../helpers/harness.js';
import { tier2User } from '../helpers/factories.js';

/**
 * Issue #28: a stolen access token renamed the account (breaking the Tier 2 name match, so transfers stop) and took
 * over its username (a login identifier, and the name senders pay to) without any further proof. Replacing either now
 * needs a step-up grant, as every credential change does; filling an empty one after signing up does not.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const update = (token: string, data: Record<string, unknown>, headers?: Record<string, string>) =>
  call(h, 'POST', '/_serverFn/updateProfileBearerSettings', data, { token, headers });
const profile = async (token: string) => (await call(h, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token })).json().profile;
let seq = 0;
const uname = (p: string) => `${p}${Date.now().toString(36).slice(-5)}${seq++}`;

describe('a stolen access token and the profile', () => {
  it('cannot replace the full name or the username; the owner with a grant can', async () => {
    const victim = await signIn(h);
    const username = uname('own');
    // Filling the empty fields (onboarding) needs no grant.
    expect((await update(victim.token, { username, fullName: 'Ada Obi' })).statusCode).toBe(200);
    // Sending the values it already has changes nothing and needs none either.
    expect((await update(victim.token, { username, fullName: 'Ada Obi' })).statusCode).toBe(200);

    for (const change of [{ fullName: 'Mallory Thief' }, { username: uname('thief') }, { fullName: 'Ada Obi', username: uname('t') }]) {
      const r = await update(victim.token, change);
      expect(r.statusCode, JSON.stringify(change)).toBe(403);
      expect(r.json().error.code).toBe('STEP_UP_REQUIRED');
    }
    expect(await profile(victim.token)).toMatchObject({ username, fullName: 'Ada Obi' });

    const headers = await emailGrant(h, victim);
    const renamed = await update(victim.token, { fullName: 'Ada Grace Obi', username: `${username}x` }, headers);
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().profile).toMatchObject({ username: `${username}x`, fullName: 'Ada Grace Obi' });
  });

  it('cannot break a Tier 2 name match: transfers keep working', async () => {
    const owner = await tier2User(h, { fullName: 'Chinedu Eze' });
    const r = await update(owner.token, { fullName: 'Someone Else' });
    expect(r.json().error.code).toBe('STEP_UP_REQUIRED');
    await expect(h.app.services.kyc.assertTransferEligible(owner.id)).resolves.toEqual({ fullName: 'Chinedu Eze' });
  });
});
