import { notify } from '../helpers/notices.js';
import http from 'node:http';
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, emailGrant, freePort, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { rows } from '../../src/db/client.js';
import { SESSION_TTL_MS } from '../../src/modules/identity/service.js';

/**
 * Issue 28, item 2: a push subscription planted with a stolen access token used to outlive the token's session and
 * receive the owner's next credential notice, "this wasn't me" link included (that link alone signs the owner out
 * everywhere). Subscriptions now belong to their session and end with it; recovery links go only by e-mail; an
 * endpoint another account registered is never moved. Pushes are read back from a real Web Push peer
 * (web-push-testing decrypts what we send), as in test/notifications/delivery.test.ts.
 */
const require = createRequire(import.meta.url);
const PushTestingServer = require('web-push-testing/src/server.js');
const { PushApiModel } = require('web-push-testing/src/PushApiModel.js');

let h: Harness;
let pushPort: number;
let pushServer: { _server: http.Server };

const P = (name: string, suffix: string) => `/_serverFn/${name}${suffix}`;
const drain = () => h.app.services.jobs.drain();
const RECOVERY_LINK = /not-me|nme_/;

async function pushPeer(path: string, body: unknown) {
  const res = await fetch(`http://localhost:${pushPort}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as any };
}

/** A browser subscription at the push peer. */
async function browser() {
  const publicKey = (await call(h, 'GET', P('getPushPublicKey', 'PublicPush'))).json().publicKey;
  const r = await pushPeer('/subscribe', { userVisibleOnly: 'true', applicationServerKey: publicKey });
  expect(r.status).toBe(200);
  return r.json.data as { endpoint: string; keys: { p256dh: string; auth: string }; clientHash: string };
}
type Browser = Awaited<ReturnType<typeof browser>>;

const save = (u: { token: string }, b: Browser) =>
  call(h, 'POST', P('savePushSubscription', 'BearerPush'), { endpoint: b.endpoint, ...b.keys }, { token: u.token });
const received = async (b: Browser) =>
  ((await pushPeer('/get-notifications', { clientHash: b.clientHash })).json.data.messages as string[]).map(
    (m) => JSON.parse(m) as { title: string; body: string; data?: unknown },
  );
/** The endpoint's rows as {user_id, session_id} (read whole, so the check runs on a schema without session_id too). */
const subscriptionOf = async (b: Browser) =>
  (
    await rows<{ r: { user_id: string; session_id?: string } }>(
      h.app.services.db,
      sql`SELECT to_jsonb(ps) AS r FROM push_subscriptions ps WHERE endpoint = ${b.endpoint}`,
    )
  ).map(({ r }) => ({ user_id: r.user_id, session_id: r.session_id }));
const inbox = async (u: TestUser) =>
  (await call(h, 'GET', P('listNotifications', 'BearerNotifications'), {}, { token: u.token })).json().items as {
    title: string;
    body: string;
    data?: unknown;
  }[];
const mails = async (to: string) =>
  (await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(to)}` })).json().items as {
    subject: string;
    text: string;
  }[];
const emit = (userId: string, title: string) =>
  h.app.services.db.transaction(async (tx) => (await notify(h, tx, [{ userId, kind: 'general', title, body: `body of ${title}` }]))[0]);

beforeAll(async () => {
  pushPort = await freePort();
  pushServer = new PushTestingServer(new PushApiModel(), pushPort);
  (pushServer as unknown as { startServer(): void }).startServer();
  await new Promise<void>((resolve) => (pushServer._server.listening ? resolve() : pushServer._server.once('listening', () => resolve())));
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
  await new Promise((r) => pushServer?._server.close(r));
});

describe('a push subscription planted with a stolen token', () => {
  it('ends when the stolen session is superseded; the next credential notice reaches only the owner, with no recovery link outside e-mail', async () => {
    const victim = await signIn(h);
    const stolen = { token: victim.token };
    const attackers = await browser();
    expect((await save(stolen, attackers)).statusCode).toBe(200);

    // The victim signs in again on their own device and claims the session: the stolen one is superseded.
    h.clock.advance(61_000);
    const again = await signIn(h, victim.email);
    const claim = await call(h, 'POST', P('claimSession', 'BearerAuth'), { deviceId: 'victim-phone-1' }, { token: again.token });
    expect(claim.json()).toMatchObject({ supersededOther: true });
    expect(await subscriptionOf(attackers)).toHaveLength(0);
    const own = await browser();
    expect((await save(again, own)).statusCode).toBe(200);

    // The victim's next credential change: its notice goes to the victim's browser only.
    const headers = await emailGrant(h, again);
    expect((await call(h, 'POST', P('setLoginPin', 'BearerAuth'), { pin: '605148' }, { token: again.token, headers })).statusCode).toBe(
      200,
    );
    await drain();
    expect(await received(attackers)).toEqual([]);
    const pushed = await received(own);
    expect(pushed.map((m) => m.title)).toContain('Security: A login PIN was set up');
    for (const m of pushed) expect(JSON.stringify(m)).not.toMatch(RECOVERY_LINK);
    // The in-app inbox has the notice and points to the e-mail, without the link.
    const items = await inbox(again);
    const notice = items.find((n) => n.title === 'Security: A login PIN was set up');
    expect(notice?.body).toMatch(/link in the e-mail/);
    for (const n of items) expect(JSON.stringify(n)).not.toMatch(RECOVERY_LINK);
    // The e-mail carries the link.
    const mail = (await mails(victim.email)).find((m) => m.subject === 'Security: A login PIN was set up');
    expect(mail?.text).toMatch(/\/api\/public\/not-me\?token=nme_/);
  });

  it('ends with sign-out and with "this wasn\'t me"; an owner signed in elsewhere keeps theirs until the not-me', async () => {
    const u = await signIn(h);
    h.clock.advance(61_000);
    const other = await signIn(h, u.email);
    const first = await browser();
    const second = await browser();
    expect((await save(u, first)).statusCode).toBe(200);
    expect((await save(other, second)).statusCode).toBe(200);

    expect((await call(h, 'POST', P('signOut', 'BearerAuth'), {}, { token: u.token })).statusCode).toBe(200);
    expect(await subscriptionOf(first)).toHaveLength(0);
    expect(await subscriptionOf(second)).toEqual([{ user_id: u.id, session_id: other.sessionId }]);

    const headers = await emailGrant(h, other);
    await call(h, 'POST', P('setLoginPin', 'BearerAuth'), { pin: '605148' }, { token: other.token, headers });
    await drain();
    const token = /not-me\?token=(nme_[A-Za-z0-9_-]+)/.exec(
      (await mails(u.email)).find((m) => m.subject === 'Security: A login PIN was set up')!.text,
    )![1];
    expect((await h.app.inject({ method: 'POST', url: '/api/public/not-me', payload: { token } })).statusCode).toBe(200);
    expect(await subscriptionOf(second)).toHaveLength(0);
    // The "signed out everywhere" notice reaches no browser: every session ended with its subscriptions.
    await drain();
    expect((await received(second)).map((m) => m.title)).not.toContain('Security: you were signed out everywhere');
  });

  it('is refused for an endpoint another account registered: the endpoint is never moved, nor its notices', async () => {
    const alice = await signIn(h);
    const mallory = await signIn(h);
    const alices = await browser();
    expect((await save(alice, alices)).statusCode).toBe(200);
    const taken = await save(mallory, alices);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('CONFLICT');
    expect(await subscriptionOf(alices)).toEqual([{ user_id: alice.id, session_id: alice.sessionId }]);

    await emit(alice.id, 'For Alice');
    await emit(mallory.id, 'For Mallory');
    await drain();
    expect((await received(alices)).map((m) => m.title)).toEqual(['For Alice']);

    // The same account from a new session (signed in again in that browser) keeps it, bound to the new session.
    h.clock.advance(61_000);
    const aliceAgain = await signIn(h, alice.email);
    expect((await save(aliceAgain, alices)).statusCode).toBe(200);
    expect(await subscriptionOf(alices)).toEqual([{ user_id: alice.id, session_id: aliceAgain.sessionId }]);
    // Once Alice's sessions are over, the browser may serve another account.
    await call(h, 'POST', P('signOut', 'BearerAuth'), {}, { token: aliceAgain.token });
    expect((await save(mallory, alices)).statusCode).toBe(200);
  });

  it("ends with its session's expiry: nothing is pushed to it afterwards and it is removed", async () => {
    const u = await signIn(h);
    const b = await browser();
    expect((await save(u, b)).statusCode).toBe(200);
    await emit(u.id, 'Before expiry');
    await drain();
    expect((await received(b)).map((m) => m.title)).toEqual(['Before expiry']);

    h.clock.advance(SESSION_TTL_MS + 1000);
    await emit(u.id, 'After expiry');
    await drain();
    expect((await received(b)).map((m) => m.title)).toEqual(['Before expiry']);
    expect(await subscriptionOf(b)).toHaveLength(0);
  });
});
