import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { call, createHarness, emailGrant, signIn, type Harness, type TestUser } from '../helpers/harness.js';

const P = '/_serverFn/';
let h: Harness;
let admin: TestUser;

beforeAll(async () => {
  h = await createHarness();
  admin = await signIn(h, 'admin@example.com');
});
afterAll(async () => h?.close());

const thread = (u: TestUser) => call(h, 'POST', `${P}getOrCreateThreadBearerSupport`, undefined, { token: u.token });
const send = (u: TestUser, threadId: string, body: string) =>
  call(h, 'POST', `${P}sendSupportMessageBearerSupport`, { threadId, body }, { token: u.token });

describe('support threads', () => {
  it('keeps one open thread per user, even under concurrent calls', async () => {
    const u = await signIn(h);
    const all = await Promise.all(Array.from({ length: 4 }, () => thread(u)));
    expect(all.every((r) => r.statusCode === 200)).toBe(true);
    const ids = new Set(all.map((r) => r.json().thread.id));
    expect(ids.size).toBe(1);
    expect(all.filter((r) => r.json().created)).toHaveLength(1);
    expect(all[0].json().thread.status).toBe('open');
  });

  it('messages flow both ways; the user is notified of replies; threads are private', async () => {
    const u = await signIn(h);
    const other = await signIn(h);
    const t = (await thread(u)).json().thread;
    const m1 = await send(u, t.id, '  My airtime did not arrive  ');
    expect(m1.statusCode).toBe(200);
    expect(m1.json().message).toMatchObject({ author: 'user', body: 'My airtime did not arrive', threadId: t.id });

    const queue = await call(
      h,
      'GET',
      `${P}adminListSupportThreadsBearerAdmin`,
      { awaitingReply: true, userId: u.id },
      { token: admin.token },
    );
    expect(queue.json().items).toEqual([expect.objectContaining({ id: t.id, userEmail: u.email, lastAuthor: 'user' })]);
    const reply = await call(
      h,
      'POST',
      `${P}adminReplySupportThreadBearerAdmin`,
      { threadId: t.id, body: 'We are checking with the provider.' },
      { token: admin.token },
    );
    expect(reply.statusCode).toBe(200);
    const notes = await rows<{ kind: string; data: { threadId: string } }>(
      h.app.services.db,
      sql`SELECT kind, data FROM notifications WHERE user_id = ${u.id}`,
    );
    expect(notes).toEqual([expect.objectContaining({ kind: 'support_reply', data: expect.objectContaining({ threadId: t.id }) })]);

    await send(u, t.id, 'Thanks');
    const page1 = await call(h, 'GET', `${P}listThreadMessagesBearerSupport`, { threadId: t.id, limit: 2 }, { token: u.token });
    expect(page1.json()).toMatchObject({ limit: 2, offset: 0, hasMore: true });
    expect(page1.json().items.map((m: { author: string }) => m.author)).toEqual(['user', 'operator']);
    const page2 = await call(h, 'GET', `${P}listThreadMessagesBearerSupport`, { threadId: t.id, limit: 2, offset: 2 }, { token: u.token });
    expect(page2.json().items.map((m: { body: string }) => m.body)).toEqual(['My airtime did not arrive']);

    // Another user's thread id is 404 on every operation.
    expect((await call(h, 'GET', `${P}listThreadMessagesBearerSupport`, { threadId: t.id }, { token: other.token })).statusCode).toBe(404);
    expect((await send(other, t.id, 'hello')).statusCode).toBe(404);
    // Users cannot use operator operations.
    expect(
      (await call(h, 'POST', `${P}adminReplySupportThreadBearerAdmin`, { threadId: t.id, body: 'x' }, { token: u.token })).statusCode,
    ).toBe(403);
  });

  it('closing ends the conversation; the next getOrCreateThread opens a new one', async () => {
    const u = await signIn(h);
    const t = (await thread(u)).json().thread;
    const closed = await call(h, 'POST', `${P}adminCloseSupportThreadBearerAdmin`, { threadId: t.id }, { token: admin.token });
    expect(closed.json().thread.status).toBe('closed');
    expect((await call(h, 'POST', `${P}adminCloseSupportThreadBearerAdmin`, { threadId: t.id }, { token: admin.token })).statusCode).toBe(
      409,
    );
    expect((await send(u, t.id, 'still there?')).statusCode).toBe(409);
    const next = (await thread(u)).json();
    expect(next.created).toBe(true);
    expect(next.thread.id).not.toBe(t.id);
    // The old thread stays readable by its owner.
    expect((await call(h, 'GET', `${P}listThreadMessagesBearerSupport`, { threadId: t.id }, { token: u.token })).statusCode).toBe(200);
  });

  it('lists by latest activity by default, longest waiting, newest or oldest opened when sort says so', async () => {
    const open = async () => {
      h.clock.advance(60_000);
      const u = await signIn(h);
      return { u, id: (await thread(u)).json().thread.id as string };
    };
    const a = await open();
    const b = await open();
    const c = await open();
    h.clock.advance(60_000);
    expect((await send(a.u, a.id, 'still waiting')).statusCode).toBe(200);
    const mine = [a.id, b.id, c.id];
    const order = async (sort?: string) => {
      const r = await call(
        h,
        'GET',
        `${P}adminListSupportThreadsBearerAdmin`,
        { limit: 100, ...(sort ? { sort } : {}) },
        { token: admin.token },
      );
      expect(r.statusCode).toBe(200);
      return r
        .json()
        .items.map((t: { id: string }) => t.id)
        .filter((id: string) => mine.includes(id));
    };
    expect(await order()).toEqual([a.id, c.id, b.id]);
    expect(await order('recent')).toEqual([a.id, c.id, b.id]);
    expect(await order('waiting')).toEqual([b.id, c.id, a.id]);
    expect(await order('newest')).toEqual([c.id, b.id, a.id]);
    expect(await order('oldest')).toEqual([a.id, b.id, c.id]);
    const bad = await call(h, 'GET', `${P}adminListSupportThreadsBearerAdmin`, { sort: 't.id' }, { token: admin.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('Sort must be recent, waiting, newest or oldest');
  });

  it('validates input', async () => {
    const u = await signIn(h);
    const t = (await thread(u)).json().thread;
    expect((await send(u, t.id, '   ')).statusCode).toBe(400);
    expect((await send(u, t.id, 'x'.repeat(4001))).statusCode).toBe(400);
    expect((await send(u, 'nope', 'hi')).statusCode).toBe(400);
    expect((await call(h, 'GET', `${P}listThreadMessagesBearerSupport`, {}, { token: u.token })).statusCode).toBe(400);
    expect((await call(h, 'POST', `${P}getOrCreateThreadBearerSupport`, {})).statusCode).toBe(401);
  });

  it("closing the account closes threads, blanks the user's messages and deletes schedules", async () => {
    const u = await signIn(h);
    await h.app.services.pins.set(u.id, 'transaction', '1234');
    const t = (await thread(u)).json().thread;
    await send(u, t.id, 'My number is 08031234567');
    const sched = await call(
      h,
      'POST',
      `${P}upsertScheduleBearerSchedules`,
      { service: 'airtime', network: 'mtn', phone: '08031234567', amount: 100, frequency: 'daily', time: '08:00', pin: '1234' },
      { token: u.token },
    );
    expect(sched.statusCode).toBe(200);
    const closed = await call(
      h,
      'POST',
      `${P}closeAccountBearerSettings`,
      { confirm: 'DELETE' },
      { token: u.token, headers: await emailGrant(h, u) },
    );
    expect(closed.statusCode).toBe(200);
    const threads = await rows<{ status: string }>(h.app.services.db, sql`SELECT status FROM support_threads WHERE user_id = ${u.id}`);
    expect(threads.map((x) => x.status)).toEqual(['closed']);
    const bodies = await rows<{ body: string }>(h.app.services.db, sql`SELECT body FROM support_messages WHERE thread_id = ${t.id}`);
    expect(bodies.map((b) => b.body)).toEqual(['[removed: account closed]']);
    const left = await rows<{ n: number }>(h.app.services.db, sql`SELECT count(*)::int AS n FROM schedules WHERE user_id = ${u.id}`);
    expect(left[0].n).toBe(0);
  });
});
