import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, signIn, type Harness } from '../helpers/harness.js';

/**
 * A PIN that verified once is remembered (by an HMAC of user, salt and PIN) so the next check skips
 * scrypt. The memo must never let an old PIN through, nor bypass the attempt lock.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('transaction PIN checks with the verified-PIN memo', () => {
  it('a remembered PIN stops working the moment the PIN is changed; the new one works', async () => {
    const u = await signIn(h);
    const { pins } = h.app.services;
    await pins.set(u.id, 'transaction', '2468');
    await pins.verify(u.id, 'transaction', '2468');
    await pins.verify(u.id, 'transaction', '2468'); // served by the memo
    await pins.set(u.id, 'transaction', '1357');
    await expect(pins.verify(u.id, 'transaction', '2468')).rejects.toMatchObject({ code: 'INVALID_PIN' });
    await pins.verify(u.id, 'transaction', '1357');
    // Setting the old PIN again gives it a new salt: it verifies through scrypt, not a stale memo entry.
    await pins.set(u.id, 'transaction', '2468');
    await pins.verify(u.id, 'transaction', '2468');
    await expect(pins.verify(u.id, 'transaction', '1357')).rejects.toMatchObject({ code: 'INVALID_PIN' });
  });

  it('a locked PIN is refused even when the right PIN is remembered', async () => {
    const u = await signIn(h);
    const { pins } = h.app.services;
    await pins.set(u.id, 'transaction', '8642');
    await pins.verify(u.id, 'transaction', '8642');
    for (let i = 0; i < 4; i++) await expect(pins.verify(u.id, 'transaction', '0000')).rejects.toMatchObject({ code: 'INVALID_PIN' });
    await expect(pins.verify(u.id, 'transaction', '0000')).rejects.toMatchObject({ code: 'PIN_LOCKED' });
    await expect(pins.verify(u.id, 'transaction', '8642')).rejects.toMatchObject({ code: 'PIN_LOCKED' });
    h.clock.advance(15 * 60_000 + 1);
    await pins.verify(u.id, 'transaction', '8642');
  });

  it('a disabled PIN is not set, whatever is remembered', async () => {
    const u = await signIn(h);
    const { pins } = h.app.services;
    await pins.set(u.id, 'transaction', '9753');
    await pins.verify(u.id, 'transaction', '9753');
    await pins.disable(u.id, 'transaction');
    await expect(pins.verify(u.id, 'transaction', '9753')).rejects.toMatchObject({ code: 'PIN_NOT_SET' });
  });
});
