import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { MINUTE } from '../../src/kernel/clock.js';

// Issue 30: admins list operators' live sessions (not idle past OPERATOR_IDLE_MINUTES, here 5) and end them; the idle
// end itself is test/security/operator-idle.test.ts.
let h: Harness;

const adminOp = (op: string) => `/_serverFn/${op}BearerAdmin`;
const profile = (u: TestUser) => call(h, 'GET', '/_serverFn/getProfileBearerSettings', undefined, { token: u.token });
const refresh = (u: TestUser) => call(h, 'POST', '/_serverFn/refreshSessionPublicAuth', { refreshToken: u.refreshToken });
const listSessions = (u: TestUser, input?: Record<string, unknown>) =>
  call(h, 'GET', adminOp('adminListOperatorSessions'), input, { token: u.token });

/** Signs the admin in again (a minute later: one e-mailed code a minute per address). */
async function signInAdmin(): Promise<TestUser> {
  h.clock.advance(61_000);
  return signIn(h, 'admin@example.com');
}

beforeAll(async () => {
  h = await createHarness({ env: { OPERATOR_IDLE_MINUTES: '5' } });
});
afterAll(async () => h.close());

describe('adminListOperatorSessions / adminRevokeOperatorSession', () => {
  it("lists operators' live sessions only, and an admin ends one", async () => {
    const a1 = await signInAdmin();
    const a2 = await signInAdmin();
    const customer = await signIn(h);
    const res = await listSessions(a1);
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json().items.map((s: { sessionId: string }) => s.sessionId);
    expect(ids).toEqual(expect.arrayContaining([a1.sessionId, a2.sessionId]));
    expect(ids).not.toContain(customer.sessionId);
    const mine = res.json().items.find((s: { sessionId: string }) => s.sessionId === a1.sessionId);
    expect(mine).toMatchObject({ userId: a1.id, email: 'admin@example.com', method: 'email_otp', current: true });
    expect(Date.parse(mine.idleEndsAt) - Date.parse(mine.lastSeenAt)).toBe(5 * MINUTE);
    // By user: a customer has no operator sessions.
    expect((await listSessions(a1, { userId: customer.id })).json().items).toEqual([]);
    expect((await listSessions(a1, { userId: a1.id })).json().items.length).toBeGreaterThanOrEqual(2);

    const notOperator = await call(
      h,
      'POST',
      adminOp('adminRevokeOperatorSession'),
      { sessionId: customer.sessionId },
      { token: a1.token },
    );
    expect(notOperator.statusCode).toBe(404);
    expect((await profile(customer)).statusCode).toBe(200);

    const revoked = await call(h, 'POST', adminOp('adminRevokeOperatorSession'), { sessionId: a2.sessionId }, { token: a1.token });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((await profile(a2)).statusCode).toBe(401);
    expect((await refresh(a2)).statusCode).toBe(401);
    expect((await listSessions(a1)).json().items.map((s: { sessionId: string }) => s.sessionId)).not.toContain(a2.sessionId);
    const twice = await call(h, 'POST', adminOp('adminRevokeOperatorSession'), { sessionId: a2.sessionId }, { token: a1.token });
    expect(twice.statusCode).toBe(404);
  });

  it('an idle session is not listed', async () => {
    const a1 = await signInAdmin();
    const a2 = await signInAdmin();
    h.clock.advance(3 * MINUTE);
    await profile(a1);
    h.clock.advance(3 * MINUTE);
    const ids = (await listSessions(a1)).json().items.map((s: { sessionId: string }) => s.sessionId);
    expect(ids).toContain(a1.sessionId);
    expect(ids).not.toContain(a2.sessionId);
  });
});
