import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { verifyLedger } from '../../src/ledger/verify.js';
import { allOperations } from '../../src/modules/index.js';
import { authOf, serverFnPath, versionedPath } from '../../src/platform/operation.js';
import { call, createHarness, expectLedgerOk, type Harness, type TestUser } from '../helpers/harness.js';
import { setUserFacts, tier2User, user, walletBalance } from '../helpers/factories.js';

// Issue 45: a test key is answered by the test world (its own database, simulators, a shadow account with a test
// wallet): nothing it does touches live money, and nothing live appears in test.
let h: Harness;
let owner: TestUser;
let testKey: string;
let testKeyId: string;

const airtime = { network: 'mtn', phone: '08031234567', amount: 100 };
const moneyOps = allOperations.filter((op) => authOf(op) === 'user' && op.gates?.money);
const session = (method: 'GET' | 'POST', name: string, input: Record<string, unknown> = {}) =>
  call(h, method, `/_serverFn/${name}BearerDevelopers`, input, { token: owner.token });
const liveMoney = async (...customers: TestUser[]) => {
  const [r] = await rows<{ n: number; total: string }>(
    h.app.services.db,
    sql`SELECT count(*)::int AS n, COALESCE(sum(abs(amount)), 0)::text AS total FROM ledger_entries`,
  );
  const who = customers.length ? customers : [owner];
  return { ...r, balances: await Promise.all(who.map((c) => walletBalance(h, c.id))) };
};
const developers = (who: TestUser, method: 'GET' | 'POST', name: string, input: Record<string, unknown> = {}) =>
  call(h, method, `/_serverFn/${name}BearerDevelopers`, input, { token: who.token });
/** A new test key of `who`, made from the developer page (its shadow account ensured); its secret. */
const testKeyOf = async (who: TestUser, scopes: string[]) => {
  const made = await developers(who, 'POST', 'createApiKey', { name: 'sandbox', mode: 'test', scopes });
  expect(made.statusCode, made.body).toBe(200);
  return made.json().secret as string;
};
/** The test world's ledger invariants (its own database). */
const expectTestLedgerOk = async () => {
  const report = await verifyLedger(h.testWorldDatabase()!.db);
  expect(report.breaches).toEqual([]);
};

beforeAll(async () => {
  h = await createHarness();
  owner = await user(h, { tier: 2, pin: '1234', naira: 5000, level: 'agent' });
  const made = await session('POST', 'createApiKey', { name: 'sandbox', mode: 'test', scopes: ['read', 'purchase', 'transfer'] });
  expect(made.statusCode, made.body).toBe(200);
  testKey = made.json().secret;
  testKeyId = made.json().key.id;
});
afterAll(async () => h.close());

describe('test mode', () => {
  it('a test key is made in the test world and listed with the live keys; its wallet is funded from the developer page', async () => {
    expect(testKey).toMatch(/^vtu_sk_test_/);
    const live = await session('POST', 'createApiKey', { name: 'shop', mode: 'live', scopes: ['read'] });
    const list = await session('GET', 'listApiKeys');
    expect(
      list
        .json()
        .keys.map((k: { mode: string }) => k.mode)
        .sort(),
    ).toEqual(['live', 'test']);
    // The live database holds no test key.
    const stored = await rows<{ mode: string }>(h.app.services.db, sql`SELECT mode FROM api_keys`);
    expect(stored.map((r) => r.mode)).toEqual(['live']);
    expect(live.statusCode).toBe(200);
    const before = await liveMoney();
    expect((await session('GET', 'getTestWallet')).json().balance).toBe(0);
    expect((await session('POST', 'fundTestWallet', { amount: 2000 })).json().balance).toBe(2000);
    expect(await liveMoney()).toEqual(before);
  });

  it('a purchase by test key pays from the test wallet at the simulators, and no live money moves', async () => {
    const before = await liveMoney();
    const buy = await call(h, 'POST', '/api/v1/buyAirtime', airtime, { token: testKey, headers: { 'idempotency-key': 't-1' } });
    expect(buy.statusCode, buy.body).toBe(200);
    expect(buy.json().transaction.status).not.toBe('failed');
    expect((await session('GET', 'getTestWallet')).json().balance).toBe(1900);
    // A retry with the same Idempotency-Key is replayed by the test world.
    const again = await call(h, 'POST', '/api/v1/buyAirtime', airtime, { token: testKey, headers: { 'idempotency-key': 't-1' } });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await liveMoney()).toEqual(before);
  });

  it('every money operation by test key leaves the live ledger and wallet as they were (registry walk)', async () => {
    const before = await liveMoney();
    for (const op of moneyOps) {
      for (const input of [{}, { ...airtime, amount: 50, pin: '1234' }]) {
        const res = await call(h, op.method, serverFnPath(op), input, {
          token: testKey,
          headers: { 'idempotency-key': `w-${op.name}-${Object.keys(input).length}` },
        });
        expect(res.statusCode, `${op.name} ${res.body}`).toBeLessThan(500);
      }
    }
    expect(await liveMoney()).toEqual(before);
    await h.app.services.jobs.drain();
    expect(await liveMoney()).toEqual(before);
    await expectLedgerOk(h);
  });

  it('a transfer by test key (the transfer scope) moves test money between shadow accounts, and no live money', async () => {
    // Two live Tier 2 customers with verified names; each key's shadow account mirrors its username and verified name.
    const ada = await tier2User(h, { username: 'twada', fullName: 'Ada Obi', pin: '1234', naira: 3000, level: 'agent' });
    const bola = await tier2User(h, { username: 'twbola', fullName: 'Bola Ade', naira: 1000 });
    const adaKey = await testKeyOf(ada, ['read', 'transfer']);
    await testKeyOf(bola, ['read']);
    expect((await developers(ada, 'POST', 'fundTestWallet', { amount: 500 })).json().balance).toBe(500);
    // Ensuring again (another key, another funding) changes nothing but the wallet.
    await testKeyOf(ada, ['read']);
    expect((await developers(ada, 'POST', 'fundTestWallet', { amount: 500 })).json().balance).toBe(1000);
    const before = await liveMoney(ada, bola);
    const send = (username: string, key: string) =>
      call(
        h,
        'POST',
        '/_serverFn/transferWalletFnBearerWallet',
        { username, amount: 100 },
        { token: adaKey, headers: { 'idempotency-key': key } },
      );
    const sent = await send('twbola', 'tw-transfer');
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ amount: 100, balance: 900, recipient: { username: 'twbola', fullName: 'Bola Ade' } });
    expect((await send('twbola', 'tw-transfer')).headers['idempotent-replayed']).toBe('true');
    expect((await developers(ada, 'GET', 'getTestWallet')).json().balance).toBe(900);
    expect((await developers(bola, 'GET', 'getTestWallet')).json().balance).toBe(100);
    expect(await liveMoney(ada, bola)).toEqual(before);
    await expectLedgerOk(h);
    await expectTestLedgerOk();
  });

  it("a shadow account follows its customer's username: a renamed customer's old name goes to whoever holds it live now", async () => {
    const ada = await tier2User(h, { username: 'twsender', fullName: 'Ada Obi' });
    const bola = await tier2User(h, { username: 'twname', fullName: 'Bola Ade' });
    const adaKey = await testKeyOf(ada, ['read', 'transfer']);
    await testKeyOf(bola, ['read']);
    await developers(ada, 'POST', 'fundTestWallet', { amount: 300 });
    await setUserFacts(h, bola.id, { username: 'twrenamed' });
    const cara = await tier2User(h, { username: 'twname', fullName: 'Cara Eze' });
    await testKeyOf(cara, ['read']);
    await testKeyOf(bola, ['read']);
    const to = async (username: string, key: string) =>
      call(
        h,
        'POST',
        '/_serverFn/transferWalletFnBearerWallet',
        { username, amount: 100 },
        { token: adaKey, headers: { 'idempotency-key': key } },
      );
    expect((await to('twname', 'tw-name-1')).json().recipient).toEqual({ username: 'twname', fullName: 'Cara Eze' });
    expect((await to('twrenamed', 'tw-name-2')).json().recipient).toEqual({ username: 'twrenamed', fullName: 'Bola Ade' });
    expect((await developers(cara, 'GET', 'getTestWallet')).json().balance).toBe(100);
    expect((await developers(bola, 'GET', 'getTestWallet')).json().balance).toBe(100);
    await expectTestLedgerOk();
  });

  it('nothing live appears in test, nor test in live', async () => {
    const live = await call(h, 'POST', '/_serverFn/buyAirtimeBearerVTU', { ...airtime, pin: '1234' }, { token: owner.token });
    expect(live.statusCode, live.body).toBe(200);
    const inTest = await call(h, 'GET', versionedPath({ name: 'listMyVtuTransactions' }), undefined, { token: testKey });
    expect(inTest.statusCode).toBe(200);
    const testRefs = inTest.json().items.map((t: { reference: string }) => t.reference);
    expect(testRefs.length).toBeGreaterThan(0);
    expect(testRefs).not.toContain(live.json().transaction.reference);
    const inLive = await call(h, 'GET', versionedPath({ name: 'listMyVtuTransactions' }), undefined, { token: owner.token });
    const liveRefs = inLive.json().items.map((t: { reference: string }) => t.reference);
    expect(liveRefs).toEqual([live.json().transaction.reference]);
  });

  it('the test world refuses live keys, and a revoked test key is refused', async () => {
    const live = await session('POST', 'createApiKey', { name: 'shop 2', mode: 'live', scopes: ['read'] });
    const world = h.app.services.testWorld!;
    const asked = await world.forward({
      method: 'GET',
      url: '/api/v1/listMyVtuTransactions',
      headers: { authorization: `Bearer ${live.json().secret}` },
      body: undefined,
      ip: '127.0.0.1',
    });
    expect(asked.status).toBe(401);
    expect((await session('POST', 'revokeApiKey', { id: testKeyId })).statusCode).toBe(200);
    const gone = await call(h, 'GET', versionedPath({ name: 'listMyVtuTransactions' }), undefined, { token: testKey });
    expect(gone.statusCode).toBe(401);
  });

  it('the live world makes no shadow account (one is verified by mirror only in the test world)', async () => {
    await expect(
      h.app.services.developers.shadow.ensure({ email: 'mirror@example.com', kycTier: 2, username: 'mirror', verifiedName: 'Mirror Name' }),
    ).rejects.toThrow(/test world only/);
  });
});
