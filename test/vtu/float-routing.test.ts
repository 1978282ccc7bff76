import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, expectLedgerOk, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, PIN, VTU_ENV } from './helpers.js';

// The provider floats' service lists follow the routing in force: the console's rows for the service and each network
// (routing.ts) over VTU_ROUTING. Data is configured at A alone here, so a move to B is seen in both floats' lists.
let h: Harness;
let admin: TestUser;
const A = (name: string) => `/_serverFn/${name}BearerAdmin`;
const op = (method: 'GET' | 'POST', name: string, data?: Record<string, unknown>) => call(h, method, A(name), data, { token: admin.token });

/** The providers whose float lists `service`, in the letters' order. */
async function listedUnder(service: string): Promise<string[]> {
  const res = await op('GET', 'adminListProviderFloats');
  expect(res.statusCode, res.body).toBe(200);
  const items = res.json().items as { provider: string; services: string[] }[];
  expect(items.map((f) => f.provider)).toEqual(['a', 'b', 'c', 'd']);
  return items.filter((f) => f.services.includes(service)).map((f) => f.provider);
}

async function setRouting(i: { service: string; network?: string; providers: string[] }) {
  const res = await op('POST', 'adminSetRouting', i);
  expect(res.statusCode, res.body).toBe(200);
}

async function clearRouting(i: { service: string; network?: string }) {
  const res = await op('POST', 'adminClearRouting', i);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().cleared).toBe(true);
}

beforeAll(async () => {
  h = await createHarness({ env: { ...VTU_ENV, VTU_ROUTING: '{"data":["a"]}' } });
  admin = await signIn(h, 'admin@example.com');
}, 180_000);
afterAll(async () => h?.close());

describe("the provider floats' service lists", () => {
  it('list a service under the provider the console moved it to, and under the configured one once cleared', async () => {
    expect(await listedUnder('data')).toEqual(['a']);

    await setRouting({ service: 'data', providers: ['b'] });
    expect(await listedUnder('data')).toEqual(['b']);

    // MTN back to A on its own: A sells data again (MTN's), B still (every other network's).
    await setRouting({ service: 'data', network: 'mtn', providers: ['a'] });
    expect(await listedUnder('data')).toEqual(['a', 'b']);

    await clearRouting({ service: 'data', network: 'mtn' });
    expect(await listedUnder('data')).toEqual(['b']);
    await clearRouting({ service: 'data' });
    expect(await listedUnder('data')).toEqual(['a']);

    // The other services keep their configured or default providers throughout.
    expect(await listedUnder('cable')).toEqual(['c']);
    expect(await listedUnder('airtime_cash')).toEqual(['c']);
  });

  it("add a network's own provider to the service's, and drop it once cleared", async () => {
    await setRouting({ service: 'data', network: 'airtel', providers: ['b'] });
    expect(await listedUnder('data')).toEqual(['a', 'b']);
    // A purchase on that network is served (and its float funded) at B, where the list now shows it.
    const customer = await buyer(h, 20_000);
    const plans = (await call(h, 'GET', '/_serverFn/listDataPlansBearerVTU', { network: 'airtel' }, { token: customer.token })).json()
      .items;
    const input = { network: 'airtel', phone: '08021230401', plan_id: plans[0].plan_id, amount: plans[0].price, pin: PIN };
    const bought = await call(h, 'POST', '/api/v1/buyData', input, { token: customer.token });
    expect(bought.statusCode, bought.body).toBe(200);
    expect(bought.json().transaction.provider).toBe('b');

    await clearRouting({ service: 'data', network: 'airtel' });
    expect(await listedUnder('data')).toEqual(['a']);
    await expectLedgerOk(h);
  });

  it('read the rows when asked: a row written by another instance is listed at once', async () => {
    await h.app.services.db.execute(
      sql`INSERT INTO vtu_routing (service, network, providers, updated_at) VALUES ('data', '', ARRAY['b'], ${h.clock.now()})`,
    );
    expect(await listedUnder('data')).toEqual(['b']);
    await h.app.services.db.execute(sql`DELETE FROM vtu_routing`);
    expect(await listedUnder('data')).toEqual(['a']);
  });
});
