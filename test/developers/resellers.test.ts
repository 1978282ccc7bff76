import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { lagosDate } from '../../src/kernel/clock.js';
import { call, createHarness, grantRoles, expectLedgerOk, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { user, walletBalance } from '../helpers/factories.js';

// Issue 45, the console's side of resellers: customers above the default level with their keys, purchases by key and
// day, webhook health; an admin suspends any key (403 KEY_SUSPENDED) and resumes it; the developer page's usage.
let h: Harness;
let admin: TestUser;
let support: TestUser;
let reseller: TestUser;
let plain: TestUser;
let key: { id: string; secret: string };
let testEndpoint: string;
let tryer: TestUser;
let tryerKey: { id: string; secret: string };

const A = (name: string) => `/_serverFn/${name}BearerAdmin`;
const buyByKey = (secret: string, phone: string, amount: number, idem: string) =>
  call(
    h,
    'POST',
    '/_serverFn/buyAirtimeBearerVTU',
    { network: 'mtn', phone, amount },
    { token: secret, headers: { 'idempotency-key': idem } },
  );
const listResellers = (who: TestUser) => call(h, 'GET', A('adminListResellers'), {}, { token: who.token });
const suspend = (who: TestUser, keyId: string, suspended: boolean) =>
  call(h, 'POST', A('adminSuspendApiKey'), { keyId, suspended }, { token: who.token });

beforeAll(async () => {
  h = await createHarness({ env: { ADMIN_EMAILS: 'admin@example.com' } });
  admin = await signIn(h, 'admin@example.com');
  support = await signIn(h, 'support@example.com');
  const db = h.app.services.db;
  await grantRoles(h, [[support, 'support']]);
  reseller = await user(h, { tier: 3, pin: '1234', naira: 5000 });
  plain = await user(h, { tier: 3, pin: '1234', naira: 5000 });
  await db.execute(
    sql`INSERT INTO vtu_customer_levels (user_id, level, source, updated_at) VALUES (${reseller.id}, 'reseller', 'grant', now())`,
  );
  const made = await call(
    h,
    'POST',
    '/_serverFn/createApiKeyBearerDevelopers',
    { name: 'shop site', mode: 'live', scopes: ['read', 'purchase'] },
    { token: reseller.token },
  );
  expect(made.statusCode, made.body).toBe(200);
  key = { id: made.json().key.id, secret: made.json().secret };
  // Two purchases by key (one fails and is refunded), one in the session: only the key's count as its usage.
  expect((await buyByKey(key.secret, '08031234567', 100, 'u-1')).json().transaction.status).toBe('success');
  expect((await buyByKey(key.secret, '08031231111', 250, 'u-2')).json().transaction.status).toBe('failed');
  const bySession = await call(
    h,
    'POST',
    '/_serverFn/buyAirtimeBearerVTU',
    { network: 'mtn', phone: '08031234568', amount: 300, pin: '1234' },
    { token: reseller.token },
  );
  expect(bySession.statusCode, bySession.body).toBe(200);
  // Webhook endpoints as the developers module keeps them: one healthy then failing, one disabled.
  const now = h.clock.now();
  await db.execute(sql`INSERT INTO webhook_endpoints (id, user_id, url, events, secret_encrypted, status, created_at)
                       VALUES ('whe_a', ${reseller.id}, 'https://shop.example.com/hooks', '{purchase.succeeded}', 'x', 'active', ${now})`);
  await db.execute(sql`INSERT INTO webhook_endpoints (id, user_id, url, events, secret_encrypted, status, disabled_reason, created_at, disabled_at)
                       VALUES ('whe_b', ${reseller.id}, 'https://old.example.com/hooks', '{purchase.failed}', 'x', 'disabled', 'HTTP 500 for 3 days', ${now}, ${now})`);
  await db.execute(sql`INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, body, status, attempts, response_status, created_at, last_attempt_at)
                       VALUES ('whd_1', 'whe_a', 'evt_1', 'purchase.succeeded', '{}', 'succeeded', 1, 200, ${new Date(now.getTime() - 60_000)}, ${new Date(now.getTime() - 60_000)}),
                              ('whd_2', 'whe_a', 'evt_2', 'purchase.succeeded', '{}', 'failed', 9, 500, ${now}, ${now})`);
  // A test endpoint (the test world's) that no one answers: a purchase by test key leaves its delivery waiting.
  const dev = (name: string, input: Record<string, unknown>) =>
    call(h, 'POST', `/_serverFn/${name}BearerDevelopers`, input, { token: reseller.token });
  const test = await dev('createWebhookEndpoint', { url: 'http://127.0.0.1:9/hooks', events: ['purchase.succeeded'], mode: 'test' });
  expect(test.statusCode, test.body).toBe(200);
  testEndpoint = test.json().endpoint.id;
  const testKey = (await dev('createApiKey', { name: 'sandbox', mode: 'test', scopes: ['purchase'] })).json().secret;
  expect((await dev('fundTestWallet', { amount: 1000 })).statusCode).toBe(200);
  expect((await buyByKey(testKey, '08031234570', 100, 't-1')).statusCode).toBe(200);
  await h.app.services.testWorld!.drain();
  // A customer at the default level trying the API with a test key only (open at Tier 1).
  tryer = await user(h, { tier: 1 });
  const tried = await call(
    h,
    'POST',
    '/_serverFn/createApiKeyBearerDevelopers',
    { name: 'trying', mode: 'test', scopes: ['read'] },
    { token: tryer.token },
  );
  expect(tried.statusCode, tried.body).toBe(200);
  tryerKey = { id: tried.json().key.id, secret: tried.json().secret };
}, 180_000);
afterAll(async () => h?.close());

describe('resellers in the console', () => {
  it('lists customers above the default level or holding a key, with their level, keys (live and test), usage by key and day, and webhook health', async () => {
    const res = await listResellers(support);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as { userId: string }[];
    expect(items.map((i) => i.userId)).toContain(reseller.id);
    expect(items.map((i) => i.userId)).not.toContain(plain.id);
    const r = res.json().items.find((i: { userId: string }) => i.userId === reseller.id);
    expect(r.level).toMatchObject({ id: 'reseller', name: 'Reseller', source: 'grant' });
    expect(r.email).toBe(reseller.email);
    // Live keys first, then the test world's, each with its mode.
    expect(r.keys.map((k: { mode: string; name: string }) => `${k.mode} ${k.name}`)).toEqual(['live shop site', 'test sandbox']);
    expect(r.keys[1].usage).toEqual([{ day: lagosDate(h.clock.now()), purchases: 1, succeeded: 1, spend: 100 }]);
    expect(r.keys[0]).toMatchObject({ id: key.id, name: 'shop site', mode: 'live', scopes: ['read', 'purchase'], suspendedAt: null });
    expect(r.keys[0].lastUsedAt).not.toBeNull();
    expect(key.secret.startsWith(r.keys[0].prefix)).toBe(true);
    expect(res.body).not.toContain(key.secret);
    expect(r.keys[0].usage).toEqual([{ day: lagosDate(h.clock.now()), purchases: 2, succeeded: 1, spend: 100 }]);
    expect(r.webhooks.map((w: { id: string; mode: string }) => `${w.mode} ${w.id}`)).toEqual([
      'live whe_a',
      'live whe_b',
      `test ${testEndpoint}`,
    ]);
    // A customer at the default level holding a test key only is listed too, with the key labelled test.
    const t1 = res.json().items.find((i: { userId: string }) => i.userId === tryer.id);
    expect(t1).toMatchObject({ email: tryer.email, level: { id: 'customer', source: 'default' } });
    expect(t1.keys).toMatchObject([{ id: tryerKey.id, name: 'trying', mode: 'test', suspendedAt: null }]);
    expect(res.json().total).toBe(2);
    const [a, b, t] = r.webhooks;
    expect(a).toMatchObject({
      id: 'whe_a',
      status: 'active',
      failedLast7Days: 1,
      pending: 0,
      lastDelivery: { status: 'failed', responseStatus: 500 },
    });
    expect(b).toMatchObject({ id: 'whe_b', status: 'disabled', disabledReason: 'HTTP 500 for 3 days', lastDelivery: null });
    // The test endpoint's health, from the test world: its one delivery waits for a retry after a refused connection.
    expect(t).toMatchObject({
      mode: 'test',
      url: 'http://127.0.0.1:9/hooks',
      status: 'active',
      failedLast7Days: 0,
      pending: 1,
      lastDelivery: { status: 'pending', responseStatus: null },
    });
  });

  it('the developer page shows the same usage by key and day, named', async () => {
    const res = await call(h, 'GET', '/_serverFn/getMyApiUsageBearerDevelopers', { days: 7 }, { token: reseller.token });
    expect(res.statusCode, res.body).toBe(200);
    // The live key's, and the test key's (its purchase in the test world, made for the test endpoint above).
    const items = (res.json().items as { mode: string }[]).sort((x, y) => x.mode.localeCompare(y.mode));
    expect(items).toEqual([
      {
        day: lagosDate(h.clock.now()),
        keyId: key.id,
        name: 'shop site',
        prefix: expect.any(String),
        mode: 'live',
        purchases: 2,
        succeeded: 1,
        spend: 100,
      },
      {
        day: lagosDate(h.clock.now()),
        keyId: expect.any(String),
        name: 'sandbox',
        prefix: expect.any(String),
        mode: 'test',
        purchases: 1,
        succeeded: 1,
        spend: 100,
      },
    ]);
    const none = await call(h, 'GET', '/_serverFn/getMyApiUsageBearerDevelopers', {}, { token: plain.token });
    expect(none.json().items).toEqual([]);
    expect((await call(h, 'GET', '/_serverFn/getMyApiUsageBearerDevelopers', { days: 0 }, { token: plain.token })).statusCode).toBe(400);
  }, 180_000); // the first call builds the test world (test keys' usage is theirs)

  it('an admin suspends a key (403 KEY_SUSPENDED, audited) and resumes it; support may not', async () => {
    expect((await suspend(support, key.id, true)).statusCode).toBe(403);
    expect((await suspend(plain, key.id, true)).statusCode).toBe(403);
    expect((await suspend(admin, 'key_nope', true)).statusCode).toBe(404);
    const done = await suspend(admin, key.id, true);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ keyId: key.id, suspended: true });
    const before = await walletBalance(h, reseller.id);
    const refused = await buyByKey(key.secret, '08031234569', 100, 'u-3');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('KEY_SUSPENDED');
    expect((await call(h, 'GET', '/_serverFn/listMyVtuTransactionsBearerVTU', {}, { token: key.secret })).json().error.code).toBe(
      'KEY_SUSPENDED',
    );
    expect(await walletBalance(h, reseller.id)).toBe(before);
    // The customer sees it suspended on the developer page; the session is not affected.
    const mine = await call(h, 'GET', '/_serverFn/listApiKeysBearerDevelopers', {}, { token: reseller.token });
    expect(mine.json().keys.find((k: { id: string }) => k.id === key.id).suspendedAt).not.toBeNull();
    const audit = await rows<{ target_ids: string[]; before_state: unknown; after_state: unknown; outcome: string }>(
      h.app.services.db,
      sql`SELECT target_ids, before_state, after_state, outcome FROM audit_log WHERE action = 'adminSuspendApiKey' AND outcome = 'ok'`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ target_ids: [key.id], before_state: { suspended: false }, after_state: { suspended: true } });

    expect((await suspend(admin, key.id, false)).json()).toMatchObject({ suspended: false, suspendedAt: null });
    const again = await buyByKey(key.secret, '08031234569', 100, 'u-4');
    expect(again.statusCode, again.body).toBe(200);
    await expectLedgerOk(h);
  });

  it('an admin suspends a test key too (the test world refuses it, 403 KEY_SUSPENDED), audited under the live customer, and resumes it', async () => {
    const read = () => call(h, 'GET', '/api/v1/listMyVtuTransactions', undefined, { token: tryerKey.secret });
    expect((await read()).statusCode).toBe(200);
    const done = await suspend(admin, tryerKey.id, true);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ keyId: tryerKey.id, suspended: true });
    expect((await read()).json().error.code).toBe('KEY_SUSPENDED');
    const listed = (await listResellers(admin)).json().items.find((i: { userId: string }) => i.userId === tryer.id);
    expect(listed.keys[0]).toMatchObject({ id: tryerKey.id, mode: 'test', suspendedAt: expect.any(String) });
    const mine = await call(h, 'GET', '/_serverFn/listApiKeysBearerDevelopers', {}, { token: tryer.token });
    expect(mine.json().keys[0]).toMatchObject({ id: tryerKey.id, suspendedAt: expect.any(String) });
    const audit = await rows<{ before_state: unknown; after_state: unknown }>(
      h.app.services.db,
      sql`SELECT before_state, after_state FROM audit_log WHERE action = 'adminSuspendApiKey' AND outcome = 'ok' AND ${tryerKey.id} = ANY(target_ids)`,
    );
    expect(audit).toEqual([{ before_state: { suspended: false, userId: tryer.id }, after_state: { suspended: true, userId: tryer.id } }]);
    expect((await suspend(admin, tryerKey.id, false)).json()).toMatchObject({ suspended: false, suspendedAt: null });
    expect((await read()).statusCode).toBe(200);
  });
});
