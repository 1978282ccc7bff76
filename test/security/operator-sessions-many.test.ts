import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../src/kernel/clock.js';
import { call, createHarness, grantRoles, signIn, type Harness, type TestUser } from '../helpers/harness.js';

// Issue 44: an operator keeps the phone and the laptop signed in side by side; each session has its own idle limit
// and is listed and revocable. A customer's device claim still ends the customer's other sessions.
let h: Harness;
const profile = (u: TestUser) => call(h, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: u.token });
const claim = (u: TestUser, device: string) =>
  call(h, 'POST', '/_serverFn/claimSessionBearerAuth', { deviceId: device }, { token: u.token });
/** A second sign-in of the same address a minute later (one e-mailed code a minute per address). */
async function again(email: string) {
  h.clock.advance(61_000);
  return signIn(h, email);
}

beforeAll(async () => {
  h = await createHarness({ env: { ADMIN_EMAILS: 'admin@example.com', OPERATOR_IDLE_MINUTES: '5' } });
  h.clock.set('2026-01-15T09:00:00Z');
});
afterAll(async () => h.close());

describe('several console sessions per operator (issue 44)', () => {
  it('signing in on the phone keeps the laptop signed in; each idles out on its own; either is revocable', async () => {
    const laptop = await signIn(h, 'admin@example.com');
    expect((await claim(laptop, 'laptop-device')).json()).toMatchObject({ supersededOther: false });
    const phone = await again('admin@example.com');
    const claimed = await claim(phone, 'phone-device');
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json().supersededOther).toBe(false);
    expect((await profile(laptop)).statusCode).toBe(200);
    expect((await profile(phone)).statusCode).toBe(200);
    expect((await claim(laptop, 'laptop-device')).statusCode).toBe(200);
    expect((await profile(phone)).statusCode).toBe(200);

    const listed = await call(h, 'GET', '/_serverFn/adminListOperatorSessionsBearerAdmin', { userId: laptop.id }, { token: laptop.token });
    expect(listed.statusCode, listed.body).toBe(200);
    const ids = listed.json().items.map((s: { sessionId: string }) => s.sessionId);
    expect(ids).toEqual(expect.arrayContaining([laptop.sessionId, phone.sessionId]));

    // The laptop is used; the phone lies untouched past the idle limit and ends alone.
    h.clock.advance(4 * MINUTE);
    expect((await profile(laptop)).statusCode).toBe(200);
    h.clock.advance(2 * MINUTE);
    expect((await profile(phone)).statusCode).toBe(401);
    expect((await profile(laptop)).statusCode).toBe(200);

    // A third session, ended from the laptop: only that one ends.
    const tablet = await again('admin@example.com');
    expect((await claim(tablet, 'tablet-device')).statusCode).toBe(200);
    const revoked = await call(
      h,
      'POST',
      '/_serverFn/adminRevokeOperatorSessionBearerAdmin',
      { sessionId: tablet.sessionId },
      { token: laptop.token },
    );
    expect(revoked.json(), revoked.body).toMatchObject({ revoked: true });
    expect((await profile(tablet)).statusCode).toBe(401);
    expect((await profile(laptop)).statusCode).toBe(200);
  });

  it("an operator who is no admin lists and ends their own sessions (a lost phone), never another operator's", async () => {
    const list = (who: TestUser, input?: Record<string, unknown>) =>
      call(h, 'GET', '/_serverFn/adminListOperatorSessionsBearerAdmin', input, { token: who.token });
    const revoke = (who: TestUser, sessionId: string) =>
      call(h, 'POST', '/_serverFn/adminRevokeOperatorSessionBearerAdmin', { sessionId }, { token: who.token });
    const admin = await again('admin@example.com');
    const laptop = await signIn(h, 'support-desk@example.com');
    await grantRoles(h, [[laptop, 'support']], admin);
    expect((await claim(laptop, 'desk-laptop')).statusCode).toBe(200);
    const phone = await again('support-desk@example.com');
    expect((await claim(phone, 'desk-phone')).statusCode).toBe(200);

    // Their own sessions only, without naming themselves; another operator's list is refused.
    const own = await list(laptop);
    expect(own.statusCode, own.body).toBe(200);
    const items = own.json().items as { sessionId: string; userId: string; current: boolean }[];
    expect(items.map((s) => s.sessionId).sort()).toEqual([laptop.sessionId, phone.sessionId].sort());
    expect(items.find((s) => s.current)?.sessionId).toBe(laptop.sessionId);
    expect((await list(laptop, { userId: laptop.id })).json().items).toHaveLength(2);
    expect((await list(laptop, { userId: admin.id })).statusCode).toBe(403);

    // Another operator's session is not theirs to end: not found, and it stays signed in.
    expect((await revoke(laptop, admin.sessionId!)).statusCode).toBe(404);
    expect((await profile(admin)).statusCode).toBe(200);

    // The lost phone, ended from the laptop.
    const ended = await revoke(laptop, phone.sessionId!);
    expect(ended.json(), ended.body).toMatchObject({ revoked: true });
    expect((await profile(phone)).statusCode).toBe(401);
    expect((await profile(laptop)).statusCode).toBe(200);

    // An admin still sees every operator's sessions.
    const all = (await list(admin)).json().items as { userId: string }[];
    expect(all.map((s) => s.userId)).toEqual(expect.arrayContaining([admin.id, laptop.id]));
  });

  it("a customer's claim on a new device still ends the customer's other session", async () => {
    const first = await signIn(h);
    expect((await claim(first, 'old-phone-device')).statusCode).toBe(200);
    const second = await again(first.email);
    expect((await claim(second, 'new-phone-device')).json()).toMatchObject({ supersededOther: true });
    const refused = await profile(first);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('SESSION_SUPERSEDED');
  });
});
