import { notify } from '../helpers/notices.js';
import { createECDH, randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, freePort, signIn, usingPostgres, type Harness, type TestUser } from '../helpers/harness.js';
import { capturingMailer, type Mailer, type OutboundEmail } from '../../src/providers/messaging.js';
import { rows } from '../../src/db/client.js';
import { SECOND } from '../../src/kernel/clock.js';
import { OUTBOX_BACKOFF_MS, OUTBOX_MAX_ATTEMPTS } from '../../src/modules/notifications/outbox.js';
import { FAN_OUT_BATCH } from '../../src/modules/notifications/notifier.js';
import { loadVapidKeys } from '../../src/providers/push.js';
import { loadConfig } from '../../src/config.js';
import { statementsOf } from '../helpers/statements.js';

// Delivery through jobs: web push to a real Web Push protocol peer (web-push-testing decrypts what we send),
// subscription expiry, Retry-After, outbox rollback, and a failing mail transport that ends dead-lettered.

const require = createRequire(import.meta.url);
const PushTestingServer = require('web-push-testing/src/server.js');
const { PushApiModel } = require('web-push-testing/src/PushApiModel.js');

let h: Harness;
let user: TestUser;
let admin: TestUser;
let pushPort: number;
let pushServer: { _server: http.Server };

/** The mail transport under test: fails for the addresses in `failing`, delivers the rest to the sandbox mailbox. */
const mailAttempts: OutboundEmail[] = [];
const failing = new Set(['bounce@example.com']);
let realMailer: Mailer | null = null;
const flakyMailer: Mailer = {
  async send(mail) {
    mailAttempts.push(mail);
    if (failing.has(mail.to)) throw new Error('SMTP 451 temporary failure');
    await realMailer!.send(mail);
  },
};

async function pushPeer(path: string, body: unknown) {
  const res = await fetch(`http://localhost:${pushPort}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as any };
}

async function subscribeAtPeer() {
  const publicKey = (await call(h, 'GET', '/_serverFn/getPushPublicKeyPublicPush')).json().publicKey;
  const r = await pushPeer('/subscribe', { userVisibleOnly: 'true', applicationServerKey: publicKey });
  expect(r.status).toBe(200);
  return r.json.data as { endpoint: string; keys: { p256dh: string; auth: string }; clientHash: string };
}

async function emit(userId: string, title: string, kind: 'general' | 'login_alert' = 'general') {
  return h.app.services.db.transaction(
    async (tx) => (await notify(h, tx, [{ userId, kind, title, body: `body of ${title}`, data: { ref: 'abc' } }]))[0],
  );
}

async function mailbox(to: string) {
  return (await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(to)}` })).json().items as {
    subject: string;
    text: string;
  }[];
}

const drain = () => h.app.services.jobs.drain();

beforeAll(async () => {
  pushPort = await freePort();
  pushServer = new PushTestingServer(new PushApiModel(), pushPort);
  (pushServer as unknown as { startServer(): void }).startServer();
  await new Promise<void>((resolve) => (pushServer._server.listening ? resolve() : pushServer._server.once('listening', () => resolve())));

  h = await createHarness({ overrides: { mailer: flakyMailer } });
  realMailer = capturingMailer(h.app.services.db, h.clock, 'test@example.com');
  user = await signIn(h);
  admin = await signIn(h, 'admin@example.com');
  await drain();
});
afterAll(async () => {
  await h?.close();
  await new Promise((r) => pushServer?._server.close(r));
});

describe('web push', () => {
  it('delivers an RFC 8291-encrypted payload the push service decrypts', async () => {
    const sub = await subscribeAtPeer();
    const saved = await call(
      h,
      'POST',
      '/_serverFn/savePushSubscriptionBearerPush',
      { endpoint: sub.endpoint, ...sub.keys },
      { token: user.token },
    );
    expect(saved.statusCode).toBe(200);

    const id = await emit(user.id, 'Airtime delivered');
    // Nothing leaves before the job runs.
    expect((await pushPeer('/get-notifications', { clientHash: sub.clientHash })).json.data.messages).toEqual([]);
    await drain();

    const got = (await pushPeer('/get-notifications', { clientHash: sub.clientHash })).json.data.messages as string[];
    expect(got).toHaveLength(1);
    const payload = JSON.parse(got[0]);
    expect(payload).toMatchObject({
      id,
      kind: 'general',
      title: 'Airtime delivered',
      body: 'body of Airtime delivered',
      data: { ref: 'abc' },
    });
    const [row] = await rows<{ last_success_at: Date | null }>(
      h.app.services.db,
      sql`SELECT last_success_at FROM push_subscriptions WHERE endpoint = ${sub.endpoint}`,
    );
    expect(row.last_success_at).not.toBeNull();
  });

  it('removes a subscription the push service reports gone (410), and keeps the inbox', async () => {
    const sub = await subscribeAtPeer();
    await call(h, 'POST', '/_serverFn/savePushSubscriptionBearerPush', { endpoint: sub.endpoint, ...sub.keys }, { token: user.token });
    expect((await pushPeer(`/expire-subscription/${sub.clientHash}`, {})).status).toBe(200);

    h.clock.advance(SECOND);
    await emit(user.id, 'After expiry');
    await drain();
    const left = await rows(h.app.services.db, sql`SELECT 1 FROM push_subscriptions WHERE endpoint = ${sub.endpoint}`);
    expect(left).toHaveLength(0);
    const dead = await rows(h.app.services.db, sql`SELECT 1 FROM jobs WHERE queue = 'notify.push' AND status <> 'done'`);
    expect(dead).toHaveLength(0);
    const inbox = (await call(h, 'GET', '/_serverFn/listNotificationsBearerNotifications', {}, { token: user.token })).json();
    expect(inbox.items[0].title).toBe('After expiry');
  });

  it('waits for Retry-After when the push service answers 429', async () => {
    const hits: number[] = [];
    const throttling = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        hits.push(Date.now());
        if (hits.length === 1) {
          res.writeHead(429, { 'retry-after': '120' }).end();
        } else {
          res.writeHead(201).end();
        }
      });
    });
    await new Promise<void>((r) => throttling.listen(0, '127.0.0.1', r));
    try {
      const port = (throttling.address() as net.AddressInfo).port;
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const other = await signIn(h);
      const endpoint = `http://127.0.0.1:${port}/push/abc`;
      const saved = await call(
        h,
        'POST',
        '/_serverFn/savePushSubscriptionBearerPush',
        { endpoint, p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
        { token: other.token },
      );
      expect(saved.statusCode).toBe(200);
      await emit(other.id, 'Throttled');
      await drain();
      expect(hits).toHaveLength(1);
      // The queue's own backoff (30 s) has passed, Retry-After (120 s) has not: no second request yet.
      h.clock.advance(60 * SECOND);
      await drain();
      expect(hits).toHaveLength(1);
      h.clock.advance(61 * SECOND);
      await drain();
      expect(hits).toHaveLength(2);
      const [row] = await rows<{ last_success_at: Date | null }>(
        h.app.services.db,
        sql`SELECT last_success_at FROM push_subscriptions WHERE endpoint = ${endpoint}`,
      );
      expect(row.last_success_at).not.toBeNull();
    } finally {
      await new Promise((r) => throttling.close(r));
    }
  });
});

describe('push service answers', () => {
  it('404 removes the subscription; a 400 is permanent and dead-letters at once', async () => {
    const hits: string[] = [];
    const peer = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        hits.push(req.url ?? '');
        res.writeHead(req.url?.startsWith('/unknown') ? 404 : 400).end('bad');
      });
    });
    await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
    try {
      const port = (peer.address() as net.AddressInfo).port;
      const u = await signIn(h);
      for (const path of ['unknown/1', 'broken/1']) {
        const ecdh = createECDH('prime256v1');
        ecdh.generateKeys();
        const r = await call(
          h,
          'POST',
          '/_serverFn/savePushSubscriptionBearerPush',
          {
            endpoint: `http://127.0.0.1:${port}/${path}`,
            p256dh: ecdh.getPublicKey().toString('base64url'),
            auth: randomBytes(16).toString('base64url'),
          },
          { token: u.token },
        );
        expect(r.statusCode).toBe(200);
      }
      await emit(u.id, 'Two endpoints');
      await drain();
      h.clock.advance(3600 * SECOND);
      await drain();
      expect(hits.sort()).toEqual(['/broken/1', '/unknown/1']);
      const left = await rows<{ endpoint: string }>(
        h.app.services.db,
        sql`SELECT endpoint FROM push_subscriptions WHERE user_id = ${u.id}`,
      );
      expect(left.map((x) => x.endpoint)).toEqual([`http://127.0.0.1:${port}/broken/1`]);
      const a = await signIn(h, 'admin@example.com');
      const dead = (await call(h, 'GET', '/_serverFn/adminListDeadLettersBearerAdmin', { channel: 'push' }, { token: a.token })).json()
        .items;
      expect(dead).toEqual([
        expect.objectContaining({ channel: 'push', recipient: `user:${u.id}`, attempts: 1, lastError: expect.stringContaining('400') }),
      ]);
      await h.app.services.db.execute(sql`DELETE FROM jobs WHERE queue = 'notify.push' AND status = 'dead'`);
    } finally {
      await new Promise((r) => peer.close(r));
    }
  });
});

describe('channels and the outbox', () => {
  it('e-mails by preference; security alerts are always e-mailed', async () => {
    const u = await signIn(h);
    await emit(u.id, 'Top-up credited');
    await drain();
    expect((await mailbox(u.email)).map((m) => m.subject)).toContain('Top-up credited');

    const prefs = await call(
      h,
      'POST',
      '/_serverFn/updatePreferencesBearerSettings',
      { notifications: { email: false, push: true, sms: false } },
      { token: u.token },
    );
    expect(prefs.statusCode).toBe(200);
    await emit(u.id, 'Data delivered');
    await emit(u.id, 'New sign-in', 'login_alert');
    await drain();
    const subjects = (await mailbox(u.email)).map((m) => m.subject);
    expect(subjects).not.toContain('Data delivered');
    expect(subjects).toContain('New sign-in');
  });

  it('emitMany writes the rows and one fan-out job for them in one statement; a retried fan-out enqueues each channel once', async () => {
    const a = await signIn(h);
    const b = await signIn(h);
    const { db } = h.app.services;
    const ids = await db.transaction((tx) =>
      notify(h, tx, [
        { userId: a.id, kind: 'transfer_sent', title: 'Sent one', body: 'to b' },
        { userId: b.id, kind: 'transfer_received', title: 'Got one', body: 'from a' },
      ]),
    );
    expect(ids).toHaveLength(2);
    const fanOuts = await rows<{ id: string; payload: unknown }>(
      db,
      sql`SELECT id::text AS id, payload FROM jobs WHERE queue = 'notify.deliver' AND payload->'notificationIds' ? ${ids[0]}`,
    );
    expect(fanOuts).toHaveLength(1);
    expect(fanOuts[0].payload).toEqual({ notificationIds: ids });
    await drain();
    // Run the fan-out again (as after a crash before completion): the channel jobs' keys keep one mail each.
    await db.execute(sql`UPDATE jobs SET status = 'queued', run_at = ${h.clock.now()} WHERE id = ${fanOuts[0].id}`);
    await drain();
    expect((await mailbox(a.email)).filter((m) => m.subject === 'Sent one')).toHaveLength(1);
    expect((await mailbox(b.email)).filter((m) => m.subject === 'Got one')).toHaveLength(1);
  });

  it.skipIf(!usingPostgres)(
    'fans a batch out in two statements: one read of the notifications, one insert of every channel job',
    async () => {
      const users = await Promise.all(Array.from({ length: 3 }, () => signIn(h)));
      const { db } = h.app.services;
      await drain();
      await db.transaction((tx) =>
        notify(
          h,
          tx,
          users.map((u, i) => ({ userId: u.id, kind: 'general' as const, title: `Counted ${i}`, body: 'b' })),
        ),
      );
      const texts = await statementsOf(async () => {
        await drain();
      });
      expect(texts.filter((t) => t.includes('FROM notifications n'))).toHaveLength(1);
      // Every channel job of the fan-out is on one change: one insert per channel queue (here e-mail only), its jobs
      // as rows of one parameter.
      const inserts = texts.filter((t) => t.includes('INSERT INTO jobs'));
      expect(inserts).toHaveLength(1);
      expect(inserts[0]).toContain('jsonb_array_elements');
      for (const [i, u] of users.entries())
        expect((await mailbox(u.email)).map((m) => m.subject).filter((t) => t.startsWith('Counted '))).toEqual([`Counted ${i}`]);
    },
  );

  it('splits a long emitMany into fan-out jobs of at most FAN_OUT_BATCH notifications, and delivers every one', async () => {
    const users = await Promise.all(Array.from({ length: 3 }, () => signIn(h)));
    const { db } = h.app.services;
    const list = Array.from({ length: FAN_OUT_BATCH + 2 }, (_, i) => ({
      userId: users[i % 3].id,
      kind: 'general' as const,
      title: `Batch ${i}`,
      body: 'b',
    }));
    const ids = await db.transaction((tx) => notify(h, tx, list));
    const fanOuts = await rows<{ n: number }>(
      db,
      sql`SELECT COALESCE(jsonb_array_length(payload->'notificationIds'), 1)::int AS n FROM jobs
          WHERE queue = 'notify.deliver' AND (payload->'notificationIds' ?| ${`{${ids.join(',')}}`}::text[] OR payload->>'notificationId' = ANY(${`{${ids.join(',')}}`}::text[]))
          ORDER BY n DESC`,
    );
    expect(fanOuts.map((f) => f.n)).toEqual([FAN_OUT_BATCH, 2]);
    await drain();
    for (const [k, u] of users.entries()) {
      const mine = list
        .filter((_, i) => i % 3 === k)
        .map((n) => n.title)
        .sort();
      expect(
        (await mailbox(u.email))
          .map((m) => m.subject)
          .filter((t) => t.startsWith('Batch '))
          .sort(),
      ).toEqual(mine);
    }
  });

  it('never sends what a rolled-back transaction emitted', async () => {
    const sub = await subscribeAtPeer();
    const u = await signIn(h);
    await call(h, 'POST', '/_serverFn/savePushSubscriptionBearerPush', { endpoint: sub.endpoint, ...sub.keys }, { token: u.token });
    const { db, outbox } = h.app.services;
    await expect(
      db.transaction(async (tx) => {
        await notify(h, tx, [{ userId: u.id, kind: 'purchase_refunded', title: 'Ghost refund', body: 'never happened' }]);
        await outbox.sendEmail(tx, { to: u.email, subject: 'Ghost receipt', text: 'never happened' });
        await outbox.sendSms(tx, { to: '08031234567', text: 'never happened' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await drain();
    h.clock.advance(3600 * SECOND);
    await drain();

    const subjects = (await mailbox(u.email)).map((m) => m.subject);
    expect(subjects).not.toContain('Ghost refund');
    expect(subjects).not.toContain('Ghost receipt');
    expect((await pushPeer('/get-notifications', { clientHash: sub.clientHash })).json.data.messages).toEqual([]);
    const sms = (await h.app.inject({ method: 'GET', url: '/sandbox/sms?to=08031234567' })).json().items;
    expect(sms).toEqual([]);
    expect(await rows(db, sql`SELECT 1 FROM notifications WHERE user_id = ${u.id} AND title = 'Ghost refund'`)).toHaveLength(0);
    // Refresh: the hour above expired the shared tokens.
    user = await signIn(h, user.email);
    admin = await signIn(h, admin.email);
  });

  it('retries a failing mail transport with backoff, then dead-letters it for operators', async () => {
    const { db, outbox } = h.app.services;
    await db.transaction((tx) => outbox.sendEmail(tx, { to: 'bounce@example.com', subject: 'Your receipt', text: 'thanks' }));
    const tries = () => mailAttempts.filter((m) => m.to === 'bounce@example.com').length;

    await drain();
    expect(tries()).toBe(1);
    await drain(); // not due yet: nothing runs before the backoff
    expect(tries()).toBe(1);
    for (let attempt = 2; attempt <= OUTBOX_MAX_ATTEMPTS; attempt++) {
      h.clock.advance(OUTBOX_BACKOFF_MS * 2 ** (attempt - 2));
      await drain();
      expect(tries()).toBe(attempt);
    }
    h.clock.advance(24 * 3600 * SECOND);
    await drain();
    expect(tries()).toBe(OUTBOX_MAX_ATTEMPTS);

    admin = await signIn(h, admin.email);
    const list = await call(h, 'GET', '/_serverFn/adminListDeadLettersBearerAdmin', { channel: 'email' }, { token: admin.token });
    expect(list.statusCode).toBe(200);
    const item = list.json().items.find((d: { recipient: string }) => d.recipient === 'bounce@example.com');
    expect(item).toMatchObject({
      channel: 'email',
      subject: 'Your receipt',
      attempts: OUTBOX_MAX_ATTEMPTS,
      lastError: 'SMTP 451 temporary failure',
    });
    expect(
      (await call(h, 'GET', '/_serverFn/adminListDeadLettersBearerAdmin', { channel: 'push' }, { token: admin.token })).json().items,
    ).toEqual([]);

    // An operator sends it again once the transport is fixed.
    failing.delete('bounce@example.com');
    const retry = await call(h, 'POST', '/_serverFn/adminRetryDeadLetterBearerAdmin', { id: item.id }, { token: admin.token });
    expect(retry.statusCode).toBe(200);
    await drain();
    expect(tries()).toBe(OUTBOX_MAX_ATTEMPTS + 1);
    expect((await mailbox('bounce@example.com')).map((m) => m.subject)).toEqual(['Your receipt']);
    expect((await call(h, 'POST', '/_serverFn/adminRetryDeadLetterBearerAdmin', { id: item.id }, { token: admin.token })).statusCode).toBe(
      404,
    );
  });
});

describe('dead letters order', () => {
  it('lists last failed first by default, first failed or most attempts first when sort says so', async () => {
    const ids: string[] = [];
    for (const attempts of [3, 8, 5]) {
      h.clock.advance(60 * SECOND);
      const [r] = await rows<{ id: string }>(
        h.app.services.db,
        sql`INSERT INTO jobs (queue, payload, status, run_at, attempts, max_attempts, last_error, created_at, updated_at)
            VALUES ('outbox.sms', ${JSON.stringify({ to: '+2348030000000', body: 'sort case' })}::jsonb, 'dead', ${h.clock.now()},
                    ${attempts}, ${attempts}, 'gateway down', ${h.clock.now()}, ${h.clock.now()})
            RETURNING id::text AS id`,
      );
      ids.push(r.id);
    }
    const [a, b, c] = ids;
    const op = '/_serverFn/adminListDeadLettersBearerAdmin';
    const order = async (sort?: string) => {
      const r = await call(h, 'GET', op, { channel: 'sms', limit: 100, ...(sort ? { sort } : {}) }, { token: admin.token });
      expect(r.statusCode).toBe(200);
      return r
        .json()
        .items.map((d: { id: string }) => d.id)
        .filter((id: string) => ids.includes(id));
    };
    try {
      expect(await order()).toEqual([c, b, a]);
      expect(await order('oldest')).toEqual([a, b, c]);
      expect(await order('attempts')).toEqual([b, c, a]);
      const bad = await call(h, 'GET', op, { sort: 'attempts DESC' }, { token: admin.token });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.message).toBe('Sort must be newest, oldest or attempts');
    } finally {
      await h.app.services.db.execute(
        sql`DELETE FROM jobs WHERE id::text IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
    }
  });
});

describe('dead letters of other queues', () => {
  it("lists every dead job the dashboard counts, another queue's as channel job, and never retries it", async () => {
    const db = h.app.services.db;
    const op = (name: string) => `/_serverFn/${name}BearerAdmin`;
    const [job] = await rows<{ id: string }>(
      db,
      sql`INSERT INTO jobs (queue, payload, status, run_at, attempts, max_attempts, last_error, created_at, updated_at)
          VALUES ('vtu.reconcile', ${JSON.stringify({ reference: 'vtu_dead_case', to: 'not a recipient' })}::jsonb, 'dead',
                  ${h.clock.now()}, 6, 6, 'provider timeout', ${h.clock.now()}, ${h.clock.now()})
          RETURNING id::text AS id`,
    );
    try {
      const all: { id: string; channel: string }[] = [];
      for (let offset = 0; ; offset += 100) {
        const r = (await call(h, 'GET', op('adminListDeadLetters'), { limit: 100, offset }, { token: admin.token })).json();
        all.push(...r.items);
        if (!r.hasMore) break;
      }
      const queues = (await call(h, 'GET', op('adminDashboardQueues'), undefined, { token: admin.token })).json();
      expect(all.length).toBe(queues.deadLetters.total);
      expect(all.find((d) => d.id === job.id)).toMatchObject({
        channel: 'job',
        recipient: 'vtu.reconcile',
        subject: null,
        attempts: 6,
        lastError: 'provider timeout',
      });

      // The job channel holds only other queues' jobs; a delivery channel none of them.
      const jobs = (await call(h, 'GET', op('adminListDeadLetters'), { channel: 'job', limit: 100 }, { token: admin.token })).json();
      expect(jobs.items.map((d: { id: string }) => d.id)).toContain(job.id);
      expect(jobs.items.every((d: { channel: string }) => d.channel === 'job')).toBe(true);
      const sms = (await call(h, 'GET', op('adminListDeadLetters'), { channel: 'sms', limit: 100 }, { token: admin.token })).json();
      expect(sms.items.map((d: { id: string }) => d.id)).not.toContain(job.id);

      // A money job is not run again by hand: refused, and the row stays as it was.
      const retry = await call(h, 'POST', op('adminRetryDeadLetter'), { id: job.id }, { token: admin.token });
      expect(retry.statusCode).toBe(404);
      expect(await rows(db, sql`SELECT status, attempts FROM jobs WHERE id::text = ${job.id}`)).toEqual([{ status: 'dead', attempts: 6 }]);
    } finally {
      await db.execute(sql`DELETE FROM jobs WHERE id::text = ${job.id}`);
    }
  });
});

describe('VAPID keys', () => {
  it('are generated once and kept under DATA_DIR outside production, and refused missing in production', () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: `${h.config.dataDir}-vapid` });
    const a = loadVapidKeys(config);
    const b = loadVapidKeys(config);
    expect(b.publicKey).toBe(a.publicKey);
    expect(b.privateKey).toBe(a.privateKey);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/VAPID_PUBLIC_KEY/);
  });
});
