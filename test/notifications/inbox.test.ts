import { notify } from '../helpers/notices.js';
import { createECDH, randomBytes } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationsOperations } from '../../src/modules/notifications/operations.js';
import { authOf, serverFnPath } from '../../src/platform/operation.js';
import { call, createHarness, emailGrant, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { setKycTier } from '../helpers/factories.js';
import { SECOND } from '../../src/kernel/clock.js';
import { rows } from '../../src/db/client.js';
import { sql } from 'drizzle-orm';

let h: Harness;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

const N = '/_serverFn/';
const list = (u: TestUser, q: Record<string, unknown> = {}) =>
  call(h, 'GET', `${N}listNotificationsBearerNotifications`, q, { token: u.token });

async function emit(userId: string, title: string) {
  const { db } = h.app.services;
  return db.transaction(async (tx) => (await notify(h, tx, [{ userId, kind: 'general', title, body: `body of ${title}` }]))[0]);
}

function pushKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

/** Access tokens live 15 minutes; after moving the clock further, sign the same accounts in again. */
async function freshTokens() {
  alice = await signIn(h, alice.email);
  bob = await signIn(h, bob.email);
  admin = await signIn(h, admin.email);
}

beforeAll(async () => {
  h = await createHarness();
  alice = await signIn(h);
  bob = await signIn(h);
  admin = await signIn(h, 'admin@example.com');
});
afterAll(async () => h.close());

describe('inbox', () => {
  it('pages newest first with the unread count, in both path forms', async () => {
    for (let i = 1; i <= 25; i++) {
      await emit(alice.id, `n${i}`);
      h.clock.advance(SECOND);
    }
    const p1 = await list(alice, { limit: 10 });
    expect(p1.statusCode).toBe(200);
    const b1 = p1.json();
    expect(b1).toMatchObject({ ok: true, limit: 10, offset: 0, hasMore: true, unread: 25 });
    expect(b1.items.map((n: { title: string }) => n.title)).toEqual(['n25', 'n24', 'n23', 'n22', 'n21', 'n20', 'n19', 'n18', 'n17', 'n16']);
    expect(Object.keys(b1.items[0]).sort()).toEqual(['body', 'createdAt', 'id', 'kind', 'params', 'read', 'title']);
    expect(b1.items[0]).toMatchObject({ kind: 'general', body: 'body of n25', read: false });

    const p3 = (await list(alice, { limit: 10, offset: 20 })).json();
    expect(p3.items.map((n: { title: string }) => n.title)).toEqual(['n5', 'n4', 'n3', 'n2', 'n1']);
    expect(p3.hasMore).toBe(false);

    const clamped = (await list(alice, { limit: 500 })).json();
    expect(clamped.limit).toBe(100);
    expect(clamped.items).toHaveLength(25);

    const v1 = await h.app.inject({
      method: 'GET',
      url: '/api/v1/listNotifications?limit=2',
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(v1.statusCode).toBe(200);
    expect(v1.json().items.map((n: { title: string }) => n.title)).toEqual(['n25', 'n24']);

    expect((await list(alice, { limit: 0 })).statusCode).toBe(400);
    expect((await list(alice, { offset: -1 })).statusCode).toBe(400);
  });

  it('marks one and then all as read; marking again keeps the state', async () => {
    const [newest] = (await list(alice, { limit: 1 })).json().items;
    const r = await call(h, 'POST', `${N}markNotificationReadBearerNotifications`, { id: newest.id }, { token: alice.token });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ ok: true, notification: { id: newest.id, read: true }, unread: 24 });
    const again = await call(h, 'POST', `${N}markNotificationReadBearerNotifications`, { id: newest.id }, { token: alice.token });
    expect(again.json().unread).toBe(24);

    const unreadOnly = (await list(alice, { unreadOnly: true, limit: 100 })).json();
    expect(unreadOnly.items).toHaveLength(24);
    expect(unreadOnly.items.find((n: { id: string }) => n.id === newest.id)).toBeUndefined();

    const all = await call(h, 'POST', `${N}markAllNotificationsReadBearerNotifications`, undefined, { token: alice.token });
    expect(all.json()).toMatchObject({ ok: true, marked: 24, unread: 0 });
    const after = (await list(alice, { limit: 100 })).json();
    expect(after.unread).toBe(0);
    expect(after.items.every((n: { read: boolean }) => n.read)).toBe(true);
  });

  it("never shows or lets anyone mark another user's notification", async () => {
    const bobsId = await emit(bob.id, 'for bob only');
    const aliceView = (await list(alice, { limit: 100 })).json();
    expect(aliceView.items.find((n: { id: string }) => n.id === bobsId)).toBeUndefined();

    const steal = await call(h, 'POST', `${N}markNotificationReadBearerNotifications`, { id: bobsId }, { token: alice.token });
    expect(steal.statusCode).toBe(404);
    expect(steal.json().error.code).toBe('NOT_FOUND');
    const missing = await call(h, 'POST', `${N}markNotificationReadBearerNotifications`, { id: randomUUID() }, { token: alice.token });
    expect(missing.statusCode).toBe(404);
    // Alice's mark-all does not touch Bob's row.
    await call(h, 'POST', `${N}markAllNotificationsReadBearerNotifications`, undefined, { token: alice.token });
    const bobView = (await list(bob)).json();
    expect(bobView.unread).toBe(1);
    expect(bobView.items).toEqual([expect.objectContaining({ id: bobsId, read: false })]);

    const junk = await call(h, 'POST', `${N}markNotificationReadBearerNotifications`, { id: 'not-a-uuid' }, { token: alice.token });
    expect(junk.statusCode).toBe(400);
    expect(junk.json().error.code).toBe('VALIDATION_FAILED');
  });
});

describe('broadcasts and polls', () => {
  const create = (data: Record<string, unknown>, token = admin.token) =>
    call(h, 'POST', `${N}adminCreateBroadcastBearerAdmin`, data, { token });
  const listB = (u: TestUser) => call(h, 'GET', `${N}listBroadcastsBearerNotifications`, {}, { token: u.token });
  const vote = (u: TestUser, pollId: string, optionId: string) =>
    call(h, 'POST', `${N}votePollBearerNotifications`, { pollId, optionId }, { token: u.token });

  it('is operator-only', async () => {
    const r = await create({ title: 't', body: 'b' }, alice.token);
    expect(r.statusCode).toBe(403);
    expect((await call(h, 'GET', `${N}adminListDeadLettersBearerAdmin`, {}, { token: alice.token })).statusCode).toBe(403);
  });

  it('shows a poll, counts one vote per user, refuses a second and shows results after voting', async () => {
    const r = await create({ title: 'Which network?', body: 'Tell us', poll: { options: ['MTN', 'Airtel', 'Glo'] } });
    expect(r.statusCode).toBe(200);
    const b = r.json().broadcast;
    expect(b).toMatchObject({ status: 'active', audience: {}, poll: { question: 'Which network?', totalVotes: 0 } });
    const [mtn, airtel] = b.poll.options;

    const seen = (await listB(alice)).json().items.find((x: { id: string }) => x.id === b.id);
    expect(seen.poll.myVote).toBeNull();
    expect(seen.poll.totalVotes).toBeUndefined();
    expect(seen.poll.options[0]).toEqual({ id: mtn.id, label: 'MTN' });

    const v = await vote(alice, b.poll.id, mtn.id);
    expect(v.statusCode).toBe(200);
    expect(v.json().poll).toMatchObject({
      myVote: mtn.id,
      totalVotes: 1,
      options: [
        { label: 'MTN', votes: 1 },
        { label: 'Airtel', votes: 0 },
        { label: 'Glo', votes: 0 },
      ],
    });

    for (const option of [mtn.id, airtel.id]) {
      const twice = await vote(alice, b.poll.id, option);
      expect(twice.statusCode).toBe(409);
      expect(twice.json().error.code).toBe('ALREADY_VOTED');
    }

    // Concurrent double vote from one user: the unique key lets exactly one through.
    const both = await Promise.all([vote(bob, b.poll.id, airtel.id), vote(bob, b.poll.id, mtn.id)]);
    expect(both.map((x) => x.statusCode).sort()).toEqual([200, 409]);

    const results = (await call(h, 'GET', `${N}adminGetPollResultsBearerAdmin`, { pollId: b.poll.id }, { token: admin.token })).json();
    expect(results.poll.totalVotes).toBe(2);
    expect(results.poll.options.reduce((s: number, o: { votes: number }) => s + o.votes, 0)).toBe(2);

    const other = (await create({ title: 'Other', body: 'x', poll: { options: ['Yes', 'No'] } })).json().broadcast;
    const foreignOption = await vote(admin, b.poll.id, other.poll.options[0].id);
    expect(foreignOption.statusCode).toBe(404);
    expect((await vote(alice, randomUUID(), mtn.id)).statusCode).toBe(404);

    const ended = await call(h, 'POST', `${N}adminEndBroadcastBearerAdmin`, { id: b.id }, { token: admin.token });
    expect(ended.json().broadcast.status).toBe('ended');
    expect((await listB(alice)).json().items.find((x: { id: string }) => x.id === b.id)).toBeUndefined();
    expect((await vote(admin, b.poll.id, mtn.id)).statusCode).toBe(404);
  });

  it('targets audiences and honours the schedule', async () => {
    const tier2 = (await create({ title: 'Tier 2 perks', body: 'x', audience: { minKycTier: 2 } })).json().broadcast;
    const newcomers = (
      await create({ title: 'Welcome', body: 'x', audience: { joinedAfter: new Date(h.clock.now().getTime() + 60_000).toISOString() } })
    ).json().broadcast;
    const later = (await create({ title: 'Later', body: 'x', startsAt: new Date(h.clock.now().getTime() + 3600_000).toISOString() })).json()
      .broadcast;
    expect(later.status).toBe('scheduled');
    const ids = async (u: TestUser) => new Set((await listB(u)).json().items.map((x: { id: string }) => x.id));

    let seen = await ids(alice);
    expect(seen.has(tier2.id)).toBe(false);
    expect(seen.has(newcomers.id)).toBe(false);
    expect(seen.has(later.id)).toBe(false);

    await setKycTier(h, alice.id, 2);
    h.clock.advance(2 * 60_000);
    const carol = await signIn(h);
    expect((await ids(alice)).has(tier2.id)).toBe(true);
    expect((await ids(carol)).has(newcomers.id)).toBe(true);
    expect((await ids(carol)).has(tier2.id)).toBe(false);

    h.clock.advance(3600_000);
    await freshTokens();
    seen = await ids(alice);
    expect(seen.has(later.id)).toBe(true);

    const scheduled = (
      await call(h, 'GET', `${N}adminListBroadcastsBearerAdmin`, { status: 'active', limit: 100 }, { token: admin.token })
    ).json();
    expect(scheduled.items.map((x: { id: string }) => x.id)).toContain(later.id);
  });

  it('refuses bad broadcast input with clear messages', async () => {
    const cases: Record<string, unknown>[] = [
      { title: '', body: 'x' },
      { title: 't', body: 'x', poll: { options: ['only one'] } },
      { title: 't', body: 'x', poll: { options: ['Same', 'same'] } },
      { title: 't', body: 'x', audience: { minKycTier: 7 } },
      { title: 't', body: 'x', audience: { everyone: true } },
      { title: 't', body: 'x', startsAt: 'tomorrow' },
      { title: 't', body: 'x', startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' },
      { title: 't', body: 'x', endsAt: '2020-01-01T00:00:00Z' },
    ];
    for (const c of cases) {
      const r = await create(c);
      expect(r.statusCode, JSON.stringify(c)).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('push subscriptions', () => {
  const save = (u: TestUser, data: Record<string, unknown>) =>
    call(h, 'POST', `${N}savePushSubscriptionBearerPush`, data, { token: u.token });
  const del = (u: TestUser, endpoint: string) => call(h, 'POST', `${N}deletePushSubscriptionBearerPush`, { endpoint }, { token: u.token });

  it('serves the VAPID public key without a token', async () => {
    const r = await call(h, 'GET', `${N}getPushPublicKeyPublicPush`);
    expect(r.statusCode).toBe(200);
    const key = Buffer.from(r.json().publicKey, 'base64url');
    expect(key.length).toBe(65);
    expect(key[0]).toBe(4);
  });

  it('validates the endpoint and key formats', async () => {
    const k = pushKeys();
    const bad: [Record<string, unknown>, string][] = [
      [{ endpoint: 'http://push.example.com/x', ...k }, 'endpoint'],
      [{ endpoint: 'ftp://push.example.com/x', ...k }, 'endpoint'],
      [{ endpoint: 'not a url', ...k }, 'endpoint'],
      [{ endpoint: 'https://10.1.2.3/x', ...k }, 'endpoint'],
      [{ endpoint: 'https://user:pw@push.example.com/x', ...k }, 'endpoint'],
      [{ endpoint: 'https://push.example.com/x', p256dh: k.p256dh.slice(0, 40), auth: k.auth }, 'p256dh'],
      [
        {
          endpoint: 'https://push.example.com/x',
          p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url'),
          auth: k.auth,
        },
        'p256dh',
      ],
      [{ endpoint: 'https://push.example.com/x', p256dh: k.p256dh, auth: 'short' }, 'auth'],
      [{ endpoint: 'https://push.example.com/x', p256dh: k.p256dh, auth: '!!!!!!!!!!!!!!!!!!!!!!' }, 'auth'],
    ];
    for (const [data, field] of bad) {
      const r = await save(alice, data);
      expect(r.statusCode, JSON.stringify(data)).toBe(400);
      expect(r.json().error.issues[0].path).toBe(field);
    }
    const ok = await save(alice, { endpoint: 'https://push.example.com/sub/1', ...k });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().subscription.endpoint).toBe('https://push.example.com/sub/1');
    // Loopback over http is a sandbox convenience for local push test servers.
    expect((await save(alice, { endpoint: 'http://127.0.0.1:9/sub', ...k })).statusCode).toBe(200);
  });

  it('deletes only the caller’s own endpoint', async () => {
    const endpoint = 'https://push.example.com/sub/bob';
    expect((await save(bob, { endpoint, ...pushKeys() })).statusCode).toBe(200);
    expect((await del(alice, endpoint)).statusCode).toBe(404);
    const r = await del(bob, endpoint);
    expect(r.statusCode).toBe(200);
    expect(r.json().deleted).toBe(true);
    expect((await del(bob, endpoint)).statusCode).toBe(404);
  });

  it('refuses an endpoint another account holds (issue 28), keeps 10 per user, and drops them on account closure', async () => {
    const dave = await signIn(h);
    const erin = await signIn(h);
    const shared = 'https://push.example.com/sub/shared-browser';
    await save(dave, { endpoint: shared, ...pushKeys() });
    expect((await save(erin, { endpoint: shared, ...pushKeys() })).statusCode).toBe(409);
    expect((await del(erin, shared)).statusCode).toBe(404);
    expect((await save(erin, { endpoint: 'https://push.example.com/sub/erin', ...pushKeys() })).statusCode).toBe(200);

    for (let i = 0; i < 12; i++) {
      h.clock.advance(SECOND);
      expect((await save(dave, { endpoint: `https://push.example.com/sub/dave-${i}`, ...pushKeys() })).statusCode).toBe(200);
    }
    const { db } = h.app.services;
    const mine = await rows<{ endpoint: string }>(
      db,
      sql`SELECT endpoint FROM push_subscriptions WHERE user_id = ${dave.id} ORDER BY created_at`,
    );
    expect(mine.map((r) => r.endpoint)).toEqual(Array.from({ length: 10 }, (_, i) => `https://push.example.com/sub/dave-${i + 2}`));

    const closed = await call(
      h,
      'POST',
      '/_serverFn/closeAccountBearerSettings',
      { confirm: 'DELETE' },
      { token: erin.token, headers: await emailGrant(h, erin) },
    );
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await rows(db, sql`SELECT 1 FROM push_subscriptions WHERE user_id = ${erin.id}`)).toHaveLength(0);
  });
});

describe('junk input', () => {
  it('never answers 500 on any notifications operation', async () => {
    const fields = [
      'id',
      'pollId',
      'optionId',
      'endpoint',
      'p256dh',
      'auth',
      'title',
      'body',
      'audience',
      'poll',
      'startsAt',
      'endsAt',
      'status',
      'channel',
      'unreadOnly',
      'limit',
      'offset',
    ];
    const junk = fc.oneof(
      fc.dictionary(
        fc.constantFrom(...fields),
        fc.oneof(
          fc.jsonValue({ maxDepth: 3 }),
          fc.constantFrom('\u0000', 'x\u0000y', '9999-12-31T23:59:59Z', 'https://[::1]/', 'http://localhost:0/x', '-1', '1e400'),
        ),
      ),
      fc.jsonValue({ maxDepth: 2 }),
    );
    for (const op of notificationsOperations) {
      const token = authOf(op) === 'admin' ? admin.token : authOf(op) === 'public' ? undefined : alice.token;
      await fc.assert(
        fc.asyncProperty(junk, async (value) => {
          const res =
            op.method === 'GET'
              ? await call(
                  h,
                  'GET',
                  serverFnPath(op),
                  value && typeof value === 'object' && !Array.isArray(value)
                    ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))
                    : { q: JSON.stringify(value) },
                  { token },
                )
              : await h.app.inject({
                  method: 'POST',
                  url: serverFnPath(op),
                  headers: token ? { authorization: `Bearer ${token}` } : {},
                  payload: { data: value } as object,
                });
          if (res.statusCode >= 500 || res.statusCode === 401) throw new Error(`${op.name} answered ${res.statusCode}: ${res.body}`);
        }),
        { numRuns: 30, seed: 7 },
      );
    }
    const nul = await call(h, 'POST', `${N}adminCreateBroadcastBearerAdmin`, { title: 'a\u0000b', body: 'x' }, { token: admin.token });
    expect(nul.statusCode).toBe(400);
  });
});
