import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { allOperations } from '../../src/modules/index.js';
import { scopeOf, serverFnPath, versionedPath, type AnyOperation } from '../../src/platform/operation.js';
import { call, createHarness, expectLedgerOk, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { grantLevel, tier2User, user, walletBalance } from '../helpers/factories.js';
import { enrollTotp } from '../security/rfc6238.js';

// Issue 45: API keys call the same operations as a session, limited to their scopes, without the PIN.
let h: Harness;
let owner: TestUser;

const KEY = /^vtu_sk_live_[A-Za-z0-9_-]{43}$/;
const customerOps = allOperations.filter((op) => op.suffix !== 'BearerAdmin' && !op.suffix.startsWith('Public'));
const session = (path: string, input: Record<string, unknown>, method: 'GET' | 'POST' = 'POST') =>
  call(h, method, path, input, { token: owner.token });
const byKey = (secret: string, op: AnyOperation, input: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  call(h, op.method, serverFnPath(op), input, { token: secret, headers });
const opNamed = (name: string) => allOperations.find((op) => op.name === name)!;
const airtime = { network: 'mtn', phone: '08031234567', amount: 100 };

/** Polls until the auth_changed trigger's message has landed (at once on PGlite; over LISTEN on PostgreSQL). */
async function waitFor(what: string, fn: () => Promise<boolean>, ms = 5000) {
  const until = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function newKey(input: Record<string, unknown>, by = owner): Promise<{ id: string; secret: string }> {
  const res = await call(
    h,
    'POST',
    '/_serverFn/createApiKeyBearerDevelopers',
    { name: 'shop', mode: 'live', ...input },
    { token: by.token },
  );
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().key.id, secret: res.json().secret };
}

beforeAll(async () => {
  h = await createHarness({ env: { RATE_LIMIT_PER_MINUTE: '60' } });
  owner = await user(h, { tier: 3, pin: '1234', naira: 5000, level: 'reseller' });
});
afterAll(async () => h.close());

describe('API keys', () => {
  it('a key is shown once, stored as its hash, and listed without its secret', async () => {
    const { id, secret } = await newKey({ scopes: ['read'] });
    expect(secret).toMatch(KEY);
    const stored = await rows<{ secret_hash: string; prefix: string }>(
      h.app.services.db,
      sql`SELECT secret_hash, prefix FROM api_keys WHERE id = ${id}`,
    );
    expect(stored[0].secret_hash).not.toContain(secret.slice(12));
    expect(secret.startsWith(stored[0].prefix)).toBe(true);
    const list = await session('/_serverFn/listApiKeysBearerDevelopers', {}, 'GET');
    expect(list.body).not.toContain(secret);
    expect(list.json().keys[0]).toMatchObject({ id, mode: 'live', scopes: ['read'], lastUsedAt: null });
  });

  it('live keys need a price level that allows them (403 naming the levels); test keys are open to any level at Tier 1', async () => {
    const plain = await user(h, { tier: 3 });
    const make = (by: TestUser, mode: 'live' | 'test') =>
      call(h, 'POST', '/_serverFn/createApiKeyBearerDevelopers', { name: 'x', mode, scopes: ['read'] }, { token: by.token });
    const refused = await make(plain, 'live');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('(Agent, Reseller, API partner); you are at Customer'),
    });
    expect(await rows(h.app.services.db, sql`SELECT id FROM api_keys WHERE user_id = ${plain.id}`)).toEqual([]);
    const trying = await user(h, { tier: 1 });
    expect((await make(trying, 'test')).statusCode).toBe(200);
    // The level says so, and a level granted opens live keys.
    const mine = await call(h, 'GET', '/_serverFn/getMyPriceLevelBearerVTU', {}, { token: plain.token });
    expect(mine.json().level).toMatchObject({ id: 'customer', apiKeys: false });
    expect(mine.json().above.map((l: { id: string; apiKeys: boolean }) => [l.id, l.apiKeys])).toEqual([
      ['agent', true],
      ['reseller', true],
      ['api_partner', true],
    ]);
    await grantLevel(h, plain.id, 'agent');
    expect((await make(plain, 'live')).statusCode).toBe(200);
  });

  it('live keys need KYC Tier 2, and keys never create keys', async () => {
    const low = await user(h, { tier: 1 });
    const res = await call(
      h,
      'POST',
      '/_serverFn/createApiKeyBearerDevelopers',
      { name: 'x', mode: 'live', scopes: ['read'] },
      { token: low.token },
    );
    expect(res.json().error.code).toBe('KYC_TIER_REQUIRED');
    const { secret } = await newKey({ scopes: ['read', 'purchase', 'transfer'] });
    const again = await byKey(secret, opNamed('createApiKey'), { name: 'y', mode: 'live', scopes: ['read'] }, { 'idempotency-key': 'k1' });
    expect(again.statusCode).toBe(403);
  });

  it('a key reads in both path forms and records its last use', async () => {
    const { id, secret } = await newKey({ scopes: ['read'] });
    const op = opNamed('listMyVtuTransactions');
    for (const url of [serverFnPath(op), versionedPath(op)]) {
      const res = await call(h, 'GET', url, undefined, { token: secret });
      expect(res.statusCode, res.body).toBe(200);
    }
    const list = await session('/_serverFn/listApiKeysBearerDevelopers', {}, 'GET');
    expect(list.json().keys.find((k: { id: string }) => k.id === id).lastUsedAt).not.toBeNull();
  });

  it('a purchase by key needs no PIN but an Idempotency-Key, and replays instead of paying twice', async () => {
    const { secret } = await newKey({ scopes: ['purchase'] });
    const buy = opNamed('buyAirtime');
    const bare = await byKey(secret, buy, airtime);
    expect(bare.statusCode).toBe(400);
    expect(bare.json().error.issues[0].path).toBe('Idempotency-Key');
    const before = await walletBalance(h, owner.id);
    const first = await byKey(secret, buy, airtime, { 'idempotency-key': 'buy-1' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().transaction.status).not.toBe('failed');
    const again = await call(h, 'POST', versionedPath(buy), airtime, { token: secret, headers: { 'idempotency-key': 'buy-1' } });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await walletBalance(h, owner.id)).toBe(before - 100);
    await expectLedgerOk(h);
  });

  it('every operation is refused (403) to a key without the scope it needs, and only to such a key (registry walk)', async () => {
    const read = await newKey({ scopes: ['read'] });
    const all = await newKey({ scopes: ['read', 'purchase', 'transfer'] });
    const entries = await rows<{ n: number }>(h.app.services.db, sql`SELECT count(*)::int AS n FROM ledger_entries`);
    const needs = new Set(customerOps.map(scopeOf));
    expect([...needs].sort()).toEqual(['purchase', 'read', 'session', 'transfer']);
    expect(customerOps.filter((op) => scopeOf(op) === 'transfer').map((op) => op.name)).toEqual(['transferWalletFn']);
    for (const op of customerOps) {
      const needed = scopeOf(op);
      const headers = { 'idempotency-key': `walk-${op.name}` };
      const asRead = await byKey(read.secret, op, {}, headers);
      if (needed === 'read') expect(asRead.json().error?.code, op.name).not.toBe('FORBIDDEN');
      else expect(asRead.statusCode, `${op.name} ${asRead.body}`).toBe(403);
      const asAll = await byKey(all.secret, op, {}, { 'idempotency-key': `walk-all-${op.name}` });
      if (needed === 'session') expect(asAll.statusCode, `${op.name} ${asAll.body}`).toBe(403);
      else expect(asAll.json().error?.code, `${op.name} ${asAll.body}`).not.toBe('FORBIDDEN');
    }
    // Operator operations are never a key's.
    const admin = allOperations.find((op) => op.suffix === 'BearerAdmin')!;
    expect((await byKey(all.secret, admin, {}, { 'idempotency-key': 'walk-admin' })).statusCode).toBe(403);
    expect(await rows(h.app.services.db, sql`SELECT count(*)::int AS n FROM ledger_entries`)).toEqual(entries);
  });

  it('a key with the transfer scope sends money without the PIN or a step-up, with an Idempotency-Key, under its daily limit', async () => {
    const sender = await tier2User(h, { fullName: 'Ada Obi', naira: 1000, level: 'reseller', pin: '1234' });
    await user(h, { username: 'keyfriend' });
    const op = opNamed('transferWalletFn');
    const send = (secret: string, idem: string | null, amount = 100) =>
      byKey(secret, op, { username: 'keyfriend', amount }, idem ? { 'idempotency-key': idem } : {});
    const buyOnly = await newKey({ scopes: ['read', 'purchase'] }, sender);
    const { secret } = await newKey({ scopes: ['transfer'], dailyLimit: 150 }, sender);
    // Two-factor on after the keys were made: a session's transfer needs a step-up now, a key's does not.
    await enrollTotp(h, sender);
    const bySession = await call(h, 'POST', serverFnPath(op), { username: 'keyfriend', amount: 100, pin: '1234' }, { token: sender.token });
    expect(bySession.json().error.code).toBe('STEP_UP_REQUIRED');
    const refused = await send(buyOnly.secret, 'tr-0');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toContain('transfer scope');
    expect((await send(secret, null)).json().error.issues[0].path).toBe('Idempotency-Key');
    const first = await send(secret, 'tr-1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ amount: 100, balance: 900, recipient: { username: 'keyfriend' } });
    expect((await send(secret, 'tr-1')).headers['idempotent-replayed']).toBe('true');
    // ₦100 of the ₦150 limit spent: another ₦100 is refused and moves nothing.
    const over = await send(secret, 'tr-2');
    expect(over.json().error.code).toBe('LIMIT_EXCEEDED');
    expect(await walletBalance(h, sender.id)).toBe(900);
    expect((await send(secret, 'tr-3', 50)).statusCode).toBe(200);
    expect(await walletBalance(h, sender.id)).toBe(850);
    await expectLedgerOk(h);
  });

  it('a revoked key is refused at once; a rolled key works for its overlap, then only its successor', async () => {
    const op = opNamed('listMyVtuTransactions');
    const gone = await newKey({ scopes: ['read'] });
    expect((await session('/_serverFn/revokeApiKeyBearerDevelopers', { id: gone.id })).statusCode).toBe(200);
    expect((await byKey(gone.secret, op)).statusCode).toBe(401);

    const old = await newKey({ scopes: ['read'] });
    const rolled = await session('/_serverFn/rollApiKeyBearerDevelopers', { id: old.id, overlapHours: 2 });
    expect(rolled.statusCode, rolled.body).toBe(200);
    const next = rolled.json().secret as string;
    expect(rolled.json().key).toMatchObject({ rolledFrom: old.id, scopes: ['read'] });
    expect((await byKey(old.secret, op)).statusCode).toBe(200);
    h.clock.advance(2 * 3600_000 + 1000);
    expect((await byKey(old.secret, op)).statusCode).toBe(401);
    expect((await byKey(next, op)).statusCode).toBe(200);
    owner = { ...(await signIn(h, owner.email)), id: owner.id }; // the session's access token ran out meanwhile
    // Another customer's key is not found.
    const other = await user(h, { tier: 3 });
    const theirs = await call(h, 'POST', '/_serverFn/revokeApiKeyBearerDevelopers', { id: old.id }, { token: other.token });
    expect(theirs.json().error.code).toBe('NOT_FOUND');
  });

  it('a key with allowed addresses is refused from any other', async () => {
    const { secret } = await newKey({ scopes: ['read'], allowedIps: ['10.9.8.7'] });
    const url = serverFnPath(opNamed('listMyVtuTransactions'));
    const headers = { authorization: `Bearer ${secret}` };
    expect((await h.app.inject({ method: 'GET', url, headers })).statusCode).toBe(403);
    expect((await h.app.inject({ method: 'GET', url, headers, remoteAddress: '10.9.8.7' })).statusCode).toBe(200);
  });

  it("a key's daily spend limit refuses what would pass it and moves nothing then", async () => {
    const { secret } = await newKey({ scopes: ['purchase'], dailyLimit: 150 });
    const buy = opNamed('buyAirtime');
    expect((await byKey(secret, buy, airtime, { 'idempotency-key': 'lim-1' })).statusCode).toBe(200);
    const before = await walletBalance(h, owner.id);
    const over = await byKey(secret, buy, airtime, { 'idempotency-key': 'lim-2' });
    expect(over.json().error.code).toBe('LIMIT_EXCEEDED');
    expect(await walletBalance(h, owner.id)).toBe(before);
    // What is left of the limit is still spendable, and then nothing.
    expect((await byKey(secret, buy, { ...airtime, amount: 50 }, { 'idempotency-key': 'lim-3' })).statusCode).toBe(200);
    expect((await byKey(secret, buy, { ...airtime, amount: 50 }, { 'idempotency-key': 'lim-4' })).json().error.code).toBe('LIMIT_EXCEEDED');
    const listed = await session('/_serverFn/listApiKeysBearerDevelopers', {}, 'GET');
    expect(listed.json().keys[0]).toMatchObject({ dailyLimit: 150, spentToday: 150 });
    await expectLedgerOk(h);
  });

  it("a key's daily spend limit reserves a plan's price (its amount, checked against the quote) and a batch of cards' price (no amount)", async () => {
    const holder = await user(h, { tier: 2, naira: 5000, level: 'reseller' });
    const { secret } = await newKey({ scopes: ['read', 'purchase'], dailyLimit: 150 }, holder);
    const plans = await byKey(secret, opNamed('listDataPlans'), { network: 'mtn' });
    expect(plans.statusCode, plans.body).toBe(200);
    const dear = (plans.json().items as { plan_id: string; price: number }[]).find((p) => p.price > 150)!;
    const cheap = (plans.json().items as { plan_id: string; price: number }[]).find((p) => p.price <= 150);
    expect(dear).toBeDefined();
    const entries = await rows(h.app.services.db, sql`SELECT count(*)::int AS n FROM ledger_entries`);
    const before = await walletBalance(h, holder.id);
    const data = await byKey(
      secret,
      opNamed('buyData'),
      { network: 'mtn', phone: '08031234567', plan_id: dear.plan_id, amount: dear.price },
      { 'idempotency-key': 'plan-1' },
    );
    expect(data.json().error?.code, data.body).toBe('LIMIT_EXCEEDED');
    // Two ₦100 cards cost more than ₦150 at any level's discount; one costs less.
    const epins = (quantity: number, idem: string) =>
      byKey(secret, opNamed('buyEpins'), { network: 'mtn', denomination: 100, quantity }, { 'idempotency-key': idem });
    expect((await epins(2, 'cards-1')).json().error?.code).toBe('LIMIT_EXCEEDED');
    expect((await epins(1000, 'cards-2')).json().error?.code).toBe('LIMIT_EXCEEDED');
    expect(await walletBalance(h, holder.id)).toBe(before);
    expect(await rows(h.app.services.db, sql`SELECT count(*)::int AS n FROM ledger_entries`)).toEqual(entries);
    // What fits is reserved and then counted at what was paid: a card, then nothing more once the limit is near.
    const card = await epins(1, 'cards-3');
    expect(card.statusCode, card.body).toBe(200);
    const paid = card.json().amount as number;
    expect(paid).toBeLessThanOrEqual(100);
    const listed = await call(h, 'GET', '/_serverFn/listApiKeysBearerDevelopers', {}, { token: holder.token });
    expect(listed.json().keys[0]).toMatchObject({ dailyLimit: 150, spentToday: paid });
    if (cheap && cheap.price > 150 - paid) {
      const next = await byKey(
        secret,
        opNamed('buyData'),
        { network: 'mtn', phone: '08031234567', plan_id: cheap.plan_id, amount: cheap.price },
        { 'idempotency-key': 'plan-2' },
      );
      expect(next.json().error?.code).toBe('LIMIT_EXCEEDED');
    }
    expect(await walletBalance(h, holder.id)).toBe(before - paid);
    await expectLedgerOk(h);
  });

  it("a key's daily spend limit reserves a level's upgrade fee, and counts what was paid", async () => {
    const holder = await user(h, { tier: 2, naira: 15_000, level: 'agent' });
    const up = (secret: string, level: string, idem: string) =>
      byKey(secret, opNamed('upgradePriceLevel'), { level }, { 'idempotency-key': idem });
    const small = await newKey({ scopes: ['purchase'], dailyLimit: 150 }, holder);
    const before = await walletBalance(h, holder.id);
    expect((await up(small.secret, 'reseller', 'up-1')).json().error?.code).toBe('LIMIT_EXCEEDED');
    expect(await walletBalance(h, holder.id)).toBe(before);
    // At or above the level, nothing is paid and nothing counted.
    expect((await up(small.secret, 'agent', 'up-2')).json()).toMatchObject({ paid: 0 });
    const big = await newKey({ scopes: ['purchase'], dailyLimit: 12_000 }, holder);
    const paid = await up(big.secret, 'reseller', 'up-3');
    expect(paid.statusCode, paid.body).toBe(200);
    const fee = paid.json().paid as number;
    expect(fee).toBeGreaterThan(150);
    const keys = (await call(h, 'GET', '/_serverFn/listApiKeysBearerDevelopers', {}, { token: holder.token })).json().keys;
    expect(keys.map((k: { id: string; spentToday: number }) => [k.id, k.spentToday])).toEqual(
      expect.arrayContaining([
        [small.id, 0],
        [big.id, fee],
      ]),
    );
    expect(await walletBalance(h, holder.id)).toBe(before - fee);
    await expectLedgerOk(h);
  });

  it("a key's holder is held in memory like a session's state, and a freeze or a closure by another writer reaches the next request", async () => {
    const holder = await user(h, { tier: 2, naira: 1000, level: 'agent' });
    const { secret } = await newKey({ scopes: ['read', 'purchase'] }, holder);
    const cached = () => h.app.services.identity.isSessionCached(`holder:${holder.id}`);
    const buy = (n: number) => byKey(secret, opNamed('buyAirtime'), airtime, { 'idempotency-key': `held-${n}` });
    expect((await buy(1)).statusCode).toBe(200);
    expect(cached()).toBe(true);
    await h.app.services.db.execute(
      sql`INSERT INTO account_freezes (user_id, reason, frozen_by, frozen_at) VALUES (${holder.id}, 'test', NULL, now())`,
    );
    await waitFor('the freeze to reach the cache', async () => !cached());
    expect((await buy(2)).json().error.code).toBe('ACCOUNT_FROZEN');
    await h.app.services.db.execute(sql`DELETE FROM account_freezes WHERE user_id = ${holder.id}`);
    await waitFor('the unfreeze to reach the cache', async () => !cached());
    expect((await buy(3)).statusCode).toBe(200);
    await h.app.services.db.execute(sql`UPDATE users SET status = 'closed' WHERE id = ${holder.id}`);
    await waitFor('the closure to reach the cache', async () => !cached());
    expect((await byKey(secret, opNamed('listDataNetworks'))).json().error.code).toBe('ACCOUNT_CLOSED');
  });

  it('each key has a rate budget of its own', async () => {
    const reseller = await user(h, { tier: 2, level: 'reseller' });
    const one = await newKey({ scopes: ['read'] }, reseller);
    const two = await newKey({ scopes: ['read'] }, reseller);
    const op = opNamed('listDataNetworks');
    const codes: number[] = [];
    for (let i = 0; i < 61; i++) codes.push((await byKey(one.secret, op)).statusCode);
    expect(codes.slice(0, 60).every((c) => c === 200)).toBe(true);
    expect(codes[60]).toBe(429);
    expect((await byKey(two.secret, op)).statusCode).toBe(200);
  });
});
