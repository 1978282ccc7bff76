import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { MINUTE } from '../../src/kernel/clock.js';
import { one } from '../../src/db/client.js';

// Issue 30: an operator's session ends after OPERATOR_IDLE_MINUTES (here 5, below the access token's 15-minute life,
// so a still-valid token meets the idle end). Issue 41: only a person's requests move the idle clock; the app's
// heartbeat, its silent refresh and the requests it marks `X-Activity: background` are checked but move nothing.
let h: Harness;

const BACKGROUND = { 'x-activity': 'background' };
const profile = (u: TestUser, headers?: Record<string, string>) =>
  call(h, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: u.token, headers });
const heartbeat = (u: TestUser) =>
  call(h, 'POST', '/_serverFn/heartbeatSessionBearerAuth', { deviceId: `dev-${u.sessionId}` }, { token: u.token });
/** As the web app refreshes: its (still valid) access token rides along. Returns the user with the new tokens. */
async function refreshed(u: TestUser): Promise<TestUser> {
  const r = await call(h, 'POST', '/_serverFn/refreshSessionPublicAuth', { refreshToken: u.refreshToken }, { token: u.token });
  expect(r.statusCode, r.body).toBe(200);
  return { ...u, token: r.json().session.accessToken, refreshToken: r.json().session.refreshToken };
}
const lastSeen = async (u: TestUser) =>
  (await one<{ t: Date }>(h.app.services.db, sql`SELECT last_seen_at AS t FROM sessions WHERE id = ${u.sessionId}`))!.t;

/** Signs the admin in again (a minute later: one e-mailed code a minute per address). */
async function signInAdmin(): Promise<TestUser> {
  h.clock.advance(61_000);
  const admin = await signIn(h, 'admin@example.com');
  const claimed = await call(
    h,
    'POST',
    '/_serverFn/claimSessionBearerAuth',
    { deviceId: `dev-${admin.sessionId}` },
    { token: admin.token },
  );
  expect(claimed.statusCode, claimed.body).toBe(200);
  return admin;
}

beforeAll(async () => {
  h = await createHarness({ env: { OPERATOR_IDLE_MINUTES: '5' } });
});
afterAll(async () => h.close());

describe('operator idle timeout', () => {
  it("a call after the idle time ends the operator's session (401), and its refresh with it; a customer's is untouched", async () => {
    const admin = await signInAdmin();
    const customer = await signIn(h);
    h.clock.advance(4 * MINUTE);
    expect((await profile(admin)).statusCode).toBe(200);
    h.clock.advance(4 * MINUTE); // 8 minutes since sign-in, 4 since the last call
    expect((await profile(admin)).statusCode).toBe(200);
    h.clock.advance(5 * MINUTE + 1000);
    const idle = await profile(admin);
    expect(idle.statusCode).toBe(401);
    expect(idle.json().error.message).toMatch(/5 minutes without activity/);
    const refresh = await call(h, 'POST', '/_serverFn/refreshSessionPublicAuth', { refreshToken: admin.refreshToken });
    expect(refresh.statusCode).toBe(401);
    const row = await one(h.app.services.db, sql`SELECT status, revoked_reason FROM sessions WHERE id = ${admin.sessionId}`);
    expect(row).toEqual({ status: 'revoked', revoked_reason: 'idle' });
    expect((await profile(customer)).statusCode).toBe(200);
    expect((await profile(customer, BACKGROUND)).statusCode).toBe(200);
  });

  it('heartbeats and silent refreshes every minute do not keep an untouched session alive', async () => {
    let admin = await signInAdmin();
    expect((await profile(admin)).statusCode).toBe(200);
    const touched = await lastSeen(admin);
    for (let minute = 1; minute <= 4; minute++) {
      h.clock.advance(MINUTE);
      const beat = await heartbeat(admin);
      expect(beat.statusCode, beat.body).toBe(200);
      if (minute % 2 === 0) admin = await refreshed(admin);
    }
    expect(await lastSeen(admin)).toEqual(touched);
    h.clock.advance(MINUTE + 1000); // 5 minutes and a second since the person's last request
    const idle = await profile(admin);
    expect(idle.statusCode).toBe(401);
    expect(idle.json().error.message).toMatch(/5 minutes without activity/);
    expect((await heartbeat(admin)).statusCode).toBe(401);
  });

  it('the heartbeat and the refresh are refused too once the idle time has passed', async () => {
    const admin = await signInAdmin();
    h.clock.advance(5 * MINUTE + 1000);
    const beat = await heartbeat(admin);
    expect(beat.statusCode).toBe(401);
    expect(beat.json().error.message).toMatch(/5 minutes without activity/);
    const other = await signInAdmin();
    h.clock.advance(5 * MINUTE + 1000);
    const r = await call(h, 'POST', '/_serverFn/refreshSessionPublicAuth', { refreshToken: other.refreshToken });
    expect(r.statusCode).toBe(401);
    expect(r.json().error.message).toMatch(/5 minutes without activity/);
  });

  it("a person's requests keep the session alive; requests marked background do not", async () => {
    const admin = await signInAdmin();
    for (let minute = 1; minute <= 7; minute++) {
      h.clock.advance(MINUTE);
      expect((await heartbeat(admin)).statusCode).toBe(200);
      expect((await profile(admin)).statusCode).toBe(200);
    }
    const touched = await lastSeen(admin);
    for (let minute = 1; minute <= 4; minute++) {
      h.clock.advance(MINUTE);
      expect((await profile(admin, BACKGROUND)).statusCode).toBe(200);
    }
    expect(await lastSeen(admin)).toEqual(touched);
    h.clock.advance(MINUTE + 1000);
    const idle = await profile(admin, BACKGROUND);
    expect(idle.statusCode).toBe(401);
    expect(idle.json().error.message).toMatch(/5 minutes without activity/);
  });

  it("tells the console the idle limit in an operator's profile (none in a customer's)", async () => {
    const admin = await signInAdmin();
    expect((await profile(admin)).json().profile.operatorIdleMinutes).toBe(5);
    const customer = await signIn(h);
    expect((await profile(customer)).json().profile.operatorIdleMinutes).toBeNull();
  });
});
