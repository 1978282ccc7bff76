import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { statementsOfEither } from '../helpers/statements.js';
import { call, createHarness, grantRoles, expectLedgerOk, signIn, usingPostgres, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, getTx, mtn, PIN, refundCount, VTU_ENV, walletBalance } from './helpers.js';

// Issue 45: provider routing set in the console per service and network, over VTU_ROUTING and the kinds' defaults.
// The sandbox's data providers A and B both sell every plan key, so which one served a purchase is its `provider`.
let h: Harness;
let admin: TestUser;
let finance: TestUser;
let support: TestUser;
let customer: TestUser;
const A = (name: string) => `/_serverFn/${name}BearerAdmin`;
const op = (method: 'GET' | 'POST', name: string, data: Record<string, unknown>, who = admin, on = h) =>
  call(on, method, A(name), data, { token: who.token });
const db = () => h.app.services.db;

const ENV = {
  ...VTU_ENV,
  VTU_ROUTING: '{"data":["a","b"]}',
  VTU_PROVIDER_A_NAME: 'Clubkonnect',
  VTU_PROVIDER_B_NAME: 'Husmodata',
};

/** Buys the network's first data plan at its listed price (listed at the network's first provider, as bought). */
async function buyData(network: string, last4: string, who = customer, on = h) {
  const plans = (await call(on, 'GET', '/_serverFn/listDataPlansBearerVTU', { network }, { token: who.token })).json().items;
  const phone = { mtn: mtn(last4), airtel: `0802123${last4}` }[network]!;
  const res = await call(
    on,
    'POST',
    '/api/v1/buyData',
    { network, phone, plan_id: plans[0].plan_id, amount: plans[0].price, pin: PIN },
    { token: who.token },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().transaction as { id: string; reference: string; status: string; provider: string };
}

/**
 * The provider of the next purchase that goes through, until `want` or 10 s: a purchase listed just before another
 * instance's change lands and bought just after is refused PRICE_CHANGED (quoted at one provider, priced at another).
 */
async function providerBecomes(want: string, network: string, last4: string, who = customer, on = h): Promise<string> {
  const deadline = Date.now() + 10_000;
  let seen = '';
  while (seen !== want && Date.now() < deadline) {
    const plans = (await call(on, 'GET', '/_serverFn/listDataPlansBearerVTU', { network }, { token: who.token })).json().items;
    const phone = { mtn: mtn(last4), airtel: `0802123${last4}` }[network]!;
    const input = { network, phone, plan_id: plans[0].plan_id, amount: plans[0].price, pin: PIN };
    const res = await call(on, 'POST', '/api/v1/buyData', input, { token: who.token });
    if (res.statusCode === 200) seen = res.json().transaction.provider;
    else expect(res.json().error.code, res.body).toBe('PRICE_CHANGED');
  }
  return seen;
}

type Route = { network: string | null; providers: { id: string; name: string }[]; source: string; own: boolean };
const routesOf = async (service: string): Promise<Route[]> => {
  const res = await op('GET', 'adminGetRouting', {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items.find((i: { service: string }) => i.service === service).routes;
};

beforeAll(async () => {
  h = await createHarness({ env: ENV });
  admin = await signIn(h, 'admin@example.com');
  finance = await signIn(h);
  support = await signIn(h);
  await grantRoles(
    h,
    [
      [finance, 'finance'],
      [support, 'support'],
    ],
    admin,
  );
  customer = await buyer(h, 50_000);
}, 180_000);
afterAll(async () => h?.close());

describe('routing in the console', () => {
  it("lists each service's order by the providers' names and where it comes from", async () => {
    const res = await op('GET', 'adminGetRouting', {}, finance);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().items.find((i: { service: string }) => i.service === 'data');
    expect(data.providers).toEqual([
      { id: 'a', name: 'Clubkonnect' },
      { id: 'b', name: 'Husmodata' },
    ]);
    expect(data.configured).toEqual({ providers: data.providers, source: 'configuration' });
    expect(data.routes.map((r: Route) => r.network)).toEqual([null, 'mtn', 'airtel', 'glo', '9mobile']);
    for (const r of data.routes) expect(r).toMatchObject({ source: 'configuration', own: false, setBy: null });
    const cable = res.json().items.find((i: { service: string }) => i.service === 'cable');
    expect(cable.routes).toEqual([
      { network: null, providers: [{ id: 'c', name: 'VTpass' }], source: 'default', own: false, setBy: null, setAt: null },
    ]);
  });

  it('a service order moves the next purchase; a network order beats it; clearing restores the configuration; audited', async () => {
    expect((await buyData('mtn', '0101')).provider).toBe('a');

    const set = await op('POST', 'adminSetRouting', { service: 'data', providers: ['b', 'a'] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().routing.routes[0]).toMatchObject({ network: null, source: 'console', own: true, setBy: admin.id });
    expect(set.json().routing.routes[0].providers.map((p: { name: string }) => p.name)).toEqual(['Husmodata', 'Clubkonnect']);
    expect((await buyData('mtn', '0102')).provider).toBe('b');
    expect((await buyData('airtel', '0103')).provider).toBe('b');

    // MTN alone back to A: its own row wins over the service's; Airtel keeps the service's.
    expect((await op('POST', 'adminSetRouting', { service: 'data', network: 'MTN', providers: ['a'] })).statusCode).toBe(200);
    const routes = await routesOf('data');
    expect(routes.find((r) => r.network === 'mtn')).toMatchObject({ source: 'console', own: true });
    expect(routes.find((r) => r.network === 'airtel')).toMatchObject({ source: 'console', own: false });
    expect((await buyData('mtn', '0104')).provider).toBe('a');
    expect((await buyData('airtel', '0105')).provider).toBe('b');

    // MTN's order has no fallback now: A's refusal ("5555") is refunded, not sent to B.
    const before = await walletBalance(h, customer.id);
    const refused = await buyData('mtn', '5555');
    expect(refused).toMatchObject({ status: 'failed', provider: 'a' });
    expect(await walletBalance(h, customer.id)).toBe(before);
    expect(await refundCount(h, refused.reference)).toBe(1);

    const clearMtn = await op('POST', 'adminClearRouting', { service: 'data', network: 'mtn' });
    expect(clearMtn.json()).toMatchObject({ cleared: true });
    expect((await buyData('mtn', '0106')).provider).toBe('b');
    const clearAll = await op('POST', 'adminClearRouting', { service: 'data' });
    expect(clearAll.json().routing.routes[0]).toMatchObject({ source: 'configuration', own: false });
    const tx = await buyData('mtn', '0107');
    expect((await getTx(h, customer, tx.id)).provider).toBe('a');
    expect((await op('POST', 'adminClearRouting', { service: 'data' })).json().cleared).toBe(false);

    const audits = await rows<{ action: string; target_ids: string[]; before_state: unknown; after_state: unknown; actor_id: string }>(
      db(),
      sql`SELECT action, target_ids, before_state, after_state, actor_id FROM audit_log
          WHERE action IN ('adminSetRouting', 'adminClearRouting') AND outcome = 'ok'`,
    );
    // The test clock stands still: the rows in any order (the last clear found nothing to clear).
    expect(audits.map((a) => [a.action, a.target_ids, a.before_state, a.after_state])).toEqual(
      expect.arrayContaining([
        ['adminSetRouting', ['data:*'], null, { providers: ['b', 'a'] }],
        ['adminSetRouting', ['data:mtn'], null, { providers: ['a'] }],
        ['adminClearRouting', ['data:mtn'], { providers: ['a'] }, null],
        ['adminClearRouting', ['data:*'], { providers: ['b', 'a'] }, null],
        ['adminClearRouting', ['data:*'], null, null],
      ]),
    );
    expect(audits).toHaveLength(5);
    expect(audits.every((a) => a.actor_id === admin.id)).toBe(true);
    await expectLedgerOk(h);
  });

  it('refuses with clear 400s: unknown service or network, a network for a kind not sold per network, no adapter, twice, none', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ service: 'pizza', providers: ['a'] }, 'service', /service must be one of airtime, data/i],
      [{ service: 'data', network: 'vodafone', providers: ['a'] }, 'network', /network must be one of mtn, airtel, glo, 9mobile/i],
      [{ service: 'cable', network: 'mtn', providers: ['c'] }, 'network', /cable TV subscription is not sold per network/i],
      [{ service: 'data', providers: ['a', 'c'] }, 'providers', /provider C has no data adapter \(only A, B\)/i],
      [{ service: 'data', providers: ['b', 'b'] }, 'providers', /provider B is named twice/i],
      [{ service: 'data', providers: [] }, 'providers', /name at least one provider/i],
      [{ service: 'data', providers: ['z'] }, 'providers.0', /provider must be one of a, b, c, d/i],
    ];
    for (const [input, path, message] of cases) {
      const res = await op('POST', 'adminSetRouting', input);
      expect(res.statusCode, JSON.stringify(input)).toBe(400);
      const err = res.json().error;
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.message).toMatch(message);
      expect(err.issues.map((i: { path: string }) => i.path)).toContain(path);
    }
    expect((await op('POST', 'adminClearRouting', { service: 'airtime', network: 'lagos' })).statusCode).toBe(400);
    const [n] = await rows<{ n: number }>(db(), sql`SELECT count(*)::int AS n FROM vtu_routing`);
    expect(n.n).toBe(0);
  });

  it('finance reads but does not change it; support and customers get 403', async () => {
    expect((await op('GET', 'adminGetRouting', {}, finance)).statusCode).toBe(200);
    for (const who of [finance, support, customer]) {
      const res = await op('POST', 'adminSetRouting', { service: 'data', providers: ['b'] }, who);
      expect(res.statusCode, res.body).toBe(403);
      expect((await op('POST', 'adminClearRouting', { service: 'data' }, who)).statusCode).toBe(403);
    }
    for (const who of [support, customer]) expect((await op('GET', 'adminGetRouting', {}, who)).statusCode).toBe(403);
    const [n] = await rows<{ n: number }>(db(), sql`SELECT count(*)::int AS n FROM vtu_routing`);
    expect(n.n).toBe(0);
  });
});

describe("each instance's copy", () => {
  it('is served without reading the table, and dropped when any writer changes a row (trigger + NOTIFY)', async () => {
    await op('POST', 'adminSetRouting', { service: 'data', providers: ['b', 'a'] });
    expect((await buyData('mtn', '0201')).provider).toBe('b');
    // A change the trigger does not announce is not seen: purchases read the copy, not the table.
    await db().execute(sql`ALTER TABLE vtu_routing DISABLE TRIGGER vtu_routing_changed`);
    await db().execute(sql`UPDATE vtu_routing SET providers = ARRAY['a', 'b'] WHERE service = 'data'`);
    await db().execute(sql`ALTER TABLE vtu_routing ENABLE TRIGGER vtu_routing_changed`);
    expect((await buyData('mtn', '0202')).provider).toBe('b');
    // Written by hand, as another instance would: the row's trigger announces it and this instance drops its copy.
    await db().execute(sql`UPDATE vtu_routing SET providers = ARRAY['a'] WHERE service = 'data'`);
    expect(await providerBecomes('a', 'mtn', '0203')).toBe('a');
    await db().execute(sql`UPDATE vtu_routing SET providers = ARRAY['b'] WHERE service = 'data'`);
    expect(await providerBecomes('b', 'airtel', '0204')).toBe('b');
    await db().execute(sql`DELETE FROM vtu_routing`);
    expect(await providerBecomes('a', 'airtel', '0205')).toBe('a');
    await expectLedgerOk(h);
  });

  it('costs a purchase no statement once kept: only the first purchase after a change reads the table', async () => {
    await op('POST', 'adminSetRouting', { service: 'data', network: 'airtel', providers: ['b'] });
    const reads = (texts: string[]) => texts.filter((t) => t.includes('vtu_routing')).length;
    expect(reads(await statementsOfEither(() => buyData('airtel', '0211')))).toBeGreaterThanOrEqual(1);
    // On PostgreSQL the change's own message may land after that read and drop the copy once more.
    for (let i = 0; i < 5 && reads(await statementsOfEither(() => buyData('airtel', '0212'))) > 0; i++);
    expect(reads(await statementsOfEither(() => buyData('airtel', '0213')))).toBe(0);
    await op('POST', 'adminClearRouting', { service: 'data', network: 'airtel' });
  });

  it.skipIf(!usingPostgres)("a second instance on the same database follows the first's console change", async () => {
    const h2 = await createHarness({ env: ENV, databaseUrl: h.app.services.config.databaseUrl });
    try {
      const there = await buyer(h2, 20_000);
      expect((await buyData('mtn', '0301', there, h2)).provider).toBe('a');
      expect((await op('POST', 'adminSetRouting', { service: 'data', network: 'mtn', providers: ['b'] })).statusCode).toBe(200);
      expect(await providerBecomes('b', 'mtn', '0302', there, h2)).toBe('b');
      await op('POST', 'adminClearRouting', { service: 'data', network: 'mtn' });
    } finally {
      await h2.close();
    }
    await expectLedgerOk(h);
  });
});
