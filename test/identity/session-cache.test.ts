import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { TestClock } from '../../src/kernel/clock.js';
import { createSessionCache, type SessionState } from '../../src/modules/identity/session-cache.js';
import { call, createHarness, signIn, type Harness } from '../helpers/harness.js';

/** Polls until the trigger's message has landed (at once on PGlite; over a LISTEN connection on PostgreSQL). */
async function waitFor(what: string, fn: () => Promise<boolean>, ms: number) {
  const until = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Authenticate keeps a session's state in memory and a verified token's claims until it expires. These
 * tests prove the cache never outlives a change: every change reaches it through the auth_changed trigger (in the
 * same process on PGlite, over LISTEN on PostgreSQL, so the PostgreSQL run waits for the message to land).
 */
const state = (userId: string, over: Partial<SessionState> = {}): SessionState => ({
  userId,
  status: 'active',
  email: `${userId}@example.com`,
  username: null,
  userStatus: 'active',
  kycTier: 0,
  twoFactor: false,
  frozen: false,
  grantedRoles: [],
  ...over,
});

describe('session cache (unit)', () => {
  it('serves and stores nothing while its invalidation feed is down', () => {
    const c = createSessionCache(new TestClock());
    c.put('s1', state('u1'), c.generation());
    expect(c.get('s1')).toBeNull();
    let live = false;
    c.attach(() => live);
    live = true;
    c.put('s1', state('u1'), c.generation());
    expect(c.get('s1')?.userId).toBe('u1');
    live = false;
    expect(c.get('s1')).toBeNull();
  });

  it('a read that raced an invalidation is not stored', () => {
    const c = createSessionCache(new TestClock());
    c.attach(() => true);
    const before = c.generation();
    c.forgetUser('someone-else');
    c.put('s1', state('u1'), before);
    expect(c.get('s1')).toBeNull();
    c.put('s1', state('u1'), c.generation());
    expect(c.get('s1')).not.toBeNull();
  });

  it('forgetUser drops every session of that user only; reset drops all', () => {
    const c = createSessionCache(new TestClock());
    c.attach(() => true);
    c.put('a1', state('a'), c.generation());
    c.put('a2', state('a'), c.generation());
    c.put('b1', state('b'), c.generation());
    c.forgetUser('a');
    expect([c.get('a1'), c.get('a2')]).toEqual([null, null]);
    expect(c.get('b1')?.userId).toBe('b');
    c.reset();
    expect(c.size()).toBe(0);
  });

  it('is bounded, oldest first, and an entry older than the backstop age is reloaded', () => {
    const clock = new TestClock();
    const c = createSessionCache(clock, { maxEntries: 2, maxAgeMs: 1000 });
    c.attach(() => true);
    c.put('s1', state('u1'), c.generation());
    c.put('s2', state('u2'), c.generation());
    c.put('s3', state('u3'), c.generation());
    expect(c.size()).toBe(2);
    expect(c.get('s1')).toBeNull();
    clock.advance(1001);
    expect(c.get('s2')).toBeNull();
  });
});

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const wallet = (token: string) => call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token });
const db = () => h.app.services.db;

describe('session cache (service)', () => {
  it('an authenticated request leaves the session cached; signing out ends it at once', async () => {
    const u = await signIn(h);
    expect((await wallet(u.token)).statusCode).toBe(200);
    expect(h.app.services.identity.isSessionCached(u.sessionId)).toBe(true);
    expect((await call(h, 'POST', '/_serverFn/signOutBearerAuth', {}, { token: u.token })).statusCode).toBe(200);
    const after = await wallet(u.token);
    expect(after.statusCode).toBe(401);
  });

  it('a session revoked by another writer (plain SQL) is refused once the change is announced', async () => {
    const u = await signIn(h);
    expect((await wallet(u.token)).statusCode).toBe(200);
    expect(h.app.services.identity.isSessionCached(u.sessionId)).toBe(true);
    await db().execute(sql`UPDATE sessions SET status = 'revoked', revoked_reason = 'operator' WHERE id = ${u.sessionId}`);
    await waitFor('the revocation to reach the cache', async () => !h.app.services.identity.isSessionCached(u.sessionId), 5000);
    const r = await wallet(u.token);
    expect(r.statusCode).toBe(401);
    expect(r.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('an account closed by another writer is refused, and a tier change is seen by the next gate', async () => {
    const u = await signIn(h);
    expect((await wallet(u.token)).statusCode).toBe(200);
    expect(h.app.services.identity.isSessionCached(u.sessionId)).toBe(true);
    await db().execute(sql`UPDATE users SET kyc_tier = 2 WHERE id = ${u.id}`);
    await waitFor('the tier change to reach the cache', async () => !h.app.services.identity.isSessionCached(u.sessionId), 5000);
    expect((await wallet(u.token)).statusCode).toBe(200);
    const me = await h.app.services.identity.authenticate(u.token);
    expect(me.kycTier).toBe(2);
    await db().execute(sql`UPDATE users SET status = 'closed' WHERE id = ${u.id}`);
    await waitFor('the closure to reach the cache', async () => !h.app.services.identity.isSessionCached(u.sessionId), 5000);
    const r = await wallet(u.token);
    expect(r.json().error.code).toBe('ACCOUNT_CLOSED');
  });

  it('an authenticator confirmed by another writer turns the step-up gate on for the cached session', async () => {
    const u = await signIn(h);
    expect((await h.app.services.identity.authenticate(u.token)).twoFactor).toBe(false);
    expect(h.app.services.identity.isSessionCached(u.sessionId)).toBe(true);
    await db().execute(sql`INSERT INTO totp_factors (user_id, secret_enc, created_at, updated_at) VALUES (${u.id}, 'x', now(), now())`);
    await waitFor('the new factor to reach the cache', async () => !h.app.services.identity.isSessionCached(u.sessionId), 5000);
    expect((await h.app.services.identity.authenticate(u.token)).twoFactor).toBe(false);
    await db().execute(sql`UPDATE totp_factors SET confirmed_at = now() WHERE user_id = ${u.id}`);
    await waitFor('the confirmation to reach the cache', async () => !h.app.services.identity.isSessionCached(u.sessionId), 5000);
    const me = await h.app.services.identity.authenticate(u.token);
    expect(me.twoFactor).toBe(true);
    await expect(h.app.services.stepUp!.require(me, undefined)).rejects.toMatchObject({ code: 'STEP_UP_REQUIRED' });
  });

  it('a heartbeat (not an auth change) keeps the cached entry', async () => {
    const u = await signIn(h);
    expect((await wallet(u.token)).statusCode).toBe(200);
    await db().execute(sql`UPDATE sessions SET heartbeat_at = now() WHERE id = ${u.sessionId}`);
    expect(h.app.services.identity.isSessionCached(u.sessionId)).toBe(true);
  });

  it('a cached verified token still expires on the injected clock', async () => {
    const u = await signIn(h);
    expect((await wallet(u.token)).statusCode).toBe(200);
    h.clock.advance(901_000);
    const r = await wallet(u.token);
    expect(r.statusCode).toBe(401);
  });
});
