import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, expectLedgerOk, fundWallet, type Harness, type TestUser } from '../helpers/harness.js';
import { balance, tier2User, user } from '../payments/helpers.js';

/**
 * TransferWalletFn must not tell a sender anything about the recipient's balance. The
 * recipient's tier cap used to be checked (and named) before the sender's funds, so a sender with ₦0 learned the
 * recipient's headroom by binary search on the amount. Now the sender's own limit and funds answer first, and a cap
 * refusal carries no amount.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

let seq = 0;
const uname = (p: string) => `${p}${Date.now().toString(36).slice(-5)}${seq++}`;
const transfer = (u: TestUser, username: string, amount: number) =>
  call(h, 'POST', '/_serverFn/transferWalletFnBearerWallet', { username, amount, pin: '2468' }, { token: u.token });

/** Everything a sender sees of a refusal, with the recipient's name (which the sender typed) taken out. */
async function answer(u: TestUser, username: string, amount: number) {
  const r = await transfer(u, username, amount);
  return { status: r.statusCode, body: r.body.split(username).join('<recipient>'), retryAfter: r.headers['retry-after'] ?? null };
}

/** Three Tier 0 recipients (cap ₦300,000): one ₦1,000 under the cap, one far under it, one that never held money. */
async function recipients() {
  const near = uname('near');
  const far = uname('far');
  const fresh = uname('fresh');
  await fundWallet(h, (await user(h, { username: near, fullName: 'Near Cap' })).id, 299_000);
  await fundWallet(h, (await user(h, { username: far, fullName: 'Far Below' })).id, 10_000);
  await user(h, { username: fresh, fullName: 'Never Funded' });
  return [near, far, fresh];
}

describe('balance oracle (transferWalletFn)', () => {
  it('a sender with ₦0 gets the same answers whatever the recipient holds: INSUFFICIENT_FUNDS before any cap', async () => {
    const names = await recipients();
    const broke = await tier2User(h, { username: uname('broke'), fullName: 'Broke Prober', pin: '2468' });
    // A binary search over the recipient's headroom (₦1,000 for `near`), and past the sender's daily limit (₦200,000).
    for (const amount of [50, 999, 1000, 1000.01, 1001, 1500, 25_000, 150_000, 200_000, 200_001]) {
      const seen = [];
      for (const name of names) seen.push(await answer(broke, name, amount));
      for (const s of seen.slice(1)) expect(s, `₦${amount}`).toEqual(seen[0]);
      const error = JSON.parse(seen[0].body).error;
      expect(error.code, `₦${amount}`).toBe(amount > 200_000 ? 'LIMIT_EXCEEDED' : 'INSUFFICIENT_FUNDS');
    }
    await expectLedgerOk(h);
  });

  it('a funded sender past its own funds is told so, not about the recipient; an over-cap refusal names no amount', async () => {
    const [near, far, fresh] = await recipients();
    const me = await tier2User(h, { username: uname('rich'), fullName: 'Some Money', pin: '2468' });
    await fundWallet(h, me.id, 5_000);
    for (const amount of [5_000.01, 20_000, 150_000]) {
      const seen = [await answer(me, near, amount), await answer(me, far, amount), await answer(me, fresh, amount)];
      expect(seen[1], `₦${amount}`).toEqual(seen[0]);
      expect(seen[2], `₦${amount}`).toEqual(seen[0]);
      expect(JSON.parse(seen[0].body).error.code).toBe('INSUFFICIENT_FUNDS');
    }

    const capped = await transfer(me, near, 2_000);
    expect(capped.statusCode).toBe(400);
    const error = capped.json().error;
    expect(error.code).toBe('LIMIT_EXCEEDED');
    // No amount (neither the one asked nor any balance or headroom), no figures at all, nothing besides code and message.
    expect(error.message).not.toMatch(/\d|₦/);
    expect(Object.keys(error).sort()).toEqual(['code', 'message']);

    expect((await transfer(me, far, 2_000)).statusCode).toBe(200);
    expect((await transfer(me, near, 1_000)).statusCode).toBe(200); // exactly up to the cap
    expect(await balance(h, me)).toBe(2_000);
    await expectLedgerOk(h);
  });
});
