import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, mtn, PIN, VTU_ENV, walletBalance } from './helpers.js';

// Issue 29: the fee before paying (quotePurchase: amount, fee, total), the fee, token and units on the electricity
// transaction, and "buy again" from a transaction's `repeat` (the purchase operation and its inputs, no PIN).
let h: Harness;
let u: TestUser;
let admin: TestUser;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
  u = await buyer(h, 40_000);
  admin = await signIn(h, 'admin@example.com');
}, 180_000);
afterAll(async () => h?.close());

const V = (name: string) => `/_serverFn/${name}BearerVTU`;
const quote = (input: Record<string, unknown>) => call(h, 'POST', V('quotePurchase'), input, { token: u.token });

describe('the fee before paying', () => {
  it('electricity: ₦2,000 with a ₦100 fee is quoted as amount, fee and total, and the transaction says the same with token and units', async () => {
    const set = await call(
      h,
      'POST',
      '/_serverFn/adminSetMarkupBearerAdmin',
      { service: 'electricity', kind: 'flat', value: 100 },
      { token: admin.token },
    );
    expect(set.statusCode, set.body).toBe(200);
    const q = await quote({ service: 'electricity', amount: 2000 });
    expect(q.json()).toEqual({
      ok: true,
      service: 'electricity',
      name: null,
      amount: 2000,
      fee: 100,
      total: 2100,
      level: { id: 'customer', name: 'Customer' },
    });

    const before = await walletBalance(h, u.id);
    const res = await call(
      h,
      'POST',
      V('buyElectricity'),
      { plan: 'ikeja', meter: '45123456789', type: 'prepaid', amount: 2000, phone: mtn('0001'), pin: PIN },
      { token: u.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    const tx = res.json().transaction;
    expect(tx).toMatchObject({ status: 'success', amount: 2100, value: 2000, fee: 100 });
    expect(tx.token).toMatch(/^\d{4}(-\d{4}){4}$/);
    expect(tx.units).toMatch(/kWh$/);
    expect(before - (await walletBalance(h, u.id))).toBe(2100);
    const again = (await call(h, 'POST', V('getMyVtuTransaction'), { id: tx.id }, { token: u.token })).json().transaction;
    expect(again).toMatchObject({ amount: 2100, value: 2000, fee: 100, token: tx.token, units: tx.units });
  });

  it('plans: the price is the total, with no fee line; exam PINs multiply by quantity', async () => {
    const plans = (await call(h, 'GET', V('listDataPlans'), { network: 'mtn' }, { token: u.token })).json().items;
    const plan = plans[0];
    expect((await quote({ service: 'data', network: 'mtn', plan_id: plan.plan_id })).json()).toEqual({
      ok: true,
      service: 'data',
      name: plan.name,
      amount: plan.price,
      fee: 0,
      total: plan.price,
      level: { id: 'customer', name: 'Customer' },
    });
    const waec = (await call(h, 'GET', V('listEducationPins'), undefined, { token: u.token }))
      .json()
      .items.find((i: any) => i.plan_id === 'waec');
    expect((await quote({ service: 'exam', exam: 'waec', quantity: 3 })).json()).toMatchObject({
      amount: waec.price * 3,
      fee: 0,
      total: waec.price * 3,
    });
    // Without a markup rule the fee is 0.
    expect((await quote({ service: 'airtime', amount: 500 })).json()).toMatchObject({ amount: 500, fee: 0, total: 500 });
  });

  it('names what is missing or out of range, field by field', async () => {
    const low = await quote({ service: 'electricity', amount: 500 });
    expect(low.statusCode).toBe(400);
    expect(low.json().error.issues).toEqual([{ path: 'amount', message: 'Amount must be between ₦1,000 and ₦500,000' }]);
    const data = await quote({ service: 'data' });
    expect(data.json().error.issues).toEqual([
      { path: 'network', message: 'Choose the network' },
      { path: 'plan_id', message: 'Choose a data plan' },
    ]);
    const gone = await quote({ service: 'data', network: 'mtn', plan_id: 'mtn-nothing-0gb' });
    expect(gone.statusCode).toBe(400);
    expect(gone.json().error.issues).toEqual([{ path: 'plan_id', message: 'This data plan is no longer offered; choose another' }]);
  });
});

describe('buy again', () => {
  it('every purchase kind answers with the operation and inputs that buy it again, and sending them (with the PIN) buys it again', async () => {
    const dataPlan = (await call(h, 'GET', V('listDataPlans'), { network: 'mtn' }, { token: u.token })).json().items[0];
    const cablePlan = (await call(h, 'GET', V('listCablePlans'), { identifier: 'gotv' }, { token: u.token })).json().items[0];
    const waec = (await call(h, 'GET', V('listEducationPins'), undefined, { token: u.token }))
      .json()
      .items.find((i: any) => i.plan_id === 'waec');
    const purchases: [string, Record<string, unknown>][] = [
      ['buyAirtime', { network: 'mtn', phone: mtn('0002'), amount: 200 }],
      ['buyData', { network: 'mtn', plan_id: dataPlan.plan_id, phone: mtn('0003'), amount: dataPlan.price }],
      [
        'subscribeCable',
        { identifier: 'gotv', iuc: '1234560004', plan_id: cablePlan.plan_id, amount: cablePlan.price, phone: mtn('0004') },
      ],
      ['buyElectricity', { plan: 'eko', meter: '45123450005', type: 'postpaid', amount: 1000, phone: mtn('0005') }],
      ['fundBet', { betting_company: 'bet9ja', customer_id: 'BET0006', amount: 300 }],
      ['buyEducationPin', { exam: 'waec', quantity: 1, phone: mtn('0007'), amount: waec.price }],
    ];
    for (const [operation, input] of purchases) {
      h.clock.advance(1000); // newest first: one second apart, so the list's first item is this purchase
      const first = await call(h, 'POST', V(operation), { ...input, pin: PIN }, { token: u.token });
      expect(first.statusCode, first.body).toBe(200);
      const tx = first.json().transaction;
      // The list carries it too (what the activity screen's "Buy again" reads).
      const listed = (await call(h, 'GET', V('listMyVtuTransactions'), { limit: 1 }, { token: u.token })).json().items[0];
      expect(listed.repeat, operation).toEqual(tx.repeat);
      expect(tx.repeat.operation).toBe(operation);
      expect(tx.repeat.input, operation).toEqual(input);
      expect(Object.keys(tx.repeat.input)).not.toContain('pin');
      expect(Object.keys(tx.repeat.input)).not.toContain('token');
      const again = await call(h, 'POST', V(tx.repeat.operation), { ...tx.repeat.input, pin: PIN }, { token: u.token });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().transaction).toMatchObject({ service: tx.service, recipient: tx.recipient, amount: tx.amount });
    }
  });
});
