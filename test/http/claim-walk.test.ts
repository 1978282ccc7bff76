import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { DAY } from '../../src/kernel/clock.js';
import { allOperations } from '../../src/modules/index.js';
import { authOf, serverFnPath, type AnyOperation } from '../../src/platform/operation.js';
import { call, createHarness, expectLedgerOk, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { PIN, tier2User, user } from '../helpers/factories.js';
import { purchase, setSettings } from '../growth/helpers.js';
import { VTU_ENV } from '../vtu/helpers.js';

/**
 * Registry walk (issue 31): every operation with the money gate that moves money under a request marks the request's
 * Idempotency-Key claim 'committed' in the transaction of its first posting, so a crash before the answer is stored
 * cannot run it twice. The mark travels in the request's scope (db/request-scope.ts) to every posting made while the
 * handler runs; a posting made outside it (work set apart from the request, or left running after the handler
 * returned) would leave the claim in flight, which this walk catches. Triggers record every status a claim takes and
 * every ledger transaction made, each with its database transaction id.
 *
 * Every money operation is either walked here with an input that moves money in the sandbox, or listed among those
 * that move none while the request runs (with the reason): a new money operation fails the first test until it is
 * put in one of the two.
 */
let h: Harness;
let u: TestUser; // the walking customer: Tier 3 with a verified name, a PIN, a username, money, and a loan history
let payee: TestUser;
let admin: TestUser;

/** Money operations that post nothing while their request runs: the money moves later, by a job or a webhook. */
const NO_POSTING_IN_REQUEST: Record<string, string> = {
  createTopupIntent: 'an intent only; the processor credit comes by webhook or verifyProcessorTopup',
  startProcessorTopup: 'an intent only; the processor credit comes by webhook or verifyProcessorTopup',
  upsertSchedule: 'stores a schedule; its purchases are made by the schedule job, with no request',
  requestAirtimeCash: 'an inbound request; the credit comes with the provider webhook or a requery',
};

const vtu = (name: string) => `/_serverFn/${name}BearerVTU`;
const get = async (url: string, input?: Record<string, unknown>) => {
  const res = await call(h, 'GET', url, input, { token: u.token });
  expect(res.statusCode, `${url} ${res.body}`).toBe(200);
  return res.json();
};
const post = async (url: string, input: Record<string, unknown>, who: TestUser = u) => {
  const res = await call(h, 'POST', url, input, { token: who.token });
  expect(res.statusCode, `${url} ${res.body}`).toBe(200);
  return res.json();
};
const phone = (last4: string) => `0803123${last4}`;

/** The money operations walked: each gives an input that moves money (setting up what it needs first). */
const WALKED: Record<string, () => Promise<Record<string, unknown>>> = {
  debitWalletFn: async () => ({ amount: 50, note: 'claim walk', pin: PIN }),
  transferWalletFn: async () => ({ username: 'walkpayee', amount: 100, pin: PIN }),
  withdrawToBank: async () => ({ bankCode: '058', accountNumber: '0123456789', amount: 100, pin: PIN }),
  createMarketplaceOrder: async () => {
    const p = await post('/_serverFn/adminCreateProductBearerAdmin', { name: `Walk ${randomUUID()}`, price: 1500, stock: 5 }, admin);
    const delivery = { fullName: 'Ada Obi', phone: '08031234567', address: '12 Allen Avenue', city: 'Ikeja', state: 'Lagos' };
    return { productId: p.product.id, quantity: 1, delivery, pin: PIN };
  },
  submitSubscriptionOrder: async () => {
    const plan = await post(
      '/_serverFn/adminCreateSubscriptionPlanBearerAdmin',
      { service: 'Netflix', category: 'streaming', name: `Walk ${randomUUID().slice(0, 8)}`, price: 2000 },
      admin,
    );
    return { planId: plan.plan.id, account: 'ada@example.com', pin: PIN };
  },
  claimCheckin: async () => ({}),
  withdrawCheckin: async () => {
    await setSettings(h, { checkinMinWithdrawal: 1 });
    return {};
  },
  createSavingsLock: async () => ({ amount: 3650, days: 365, pin: PIN }),
  breakSavingsLock: async () => {
    const lock = await post('/_serverFn/createSavingsLockBearerSavings', { amount: 2000, days: 30, pin: PIN });
    return { lockId: lock.lock.id };
  },
  upgradePriceLevel: async () => ({ level: 'agent', pin: PIN }),
  // After upgradePriceLevel: an Agent may buy recharge cards (issue 45).
  buyEpins: async () => ({ network: 'mtn', denomination: 100, quantity: 3, pin: PIN }),
  takeLoan: async () => ({ amount: 2000 }),
  repayLoan: async () => ({}),
  verifyProcessorTopup: async () => {
    const intent = await post('/_serverFn/createTopupIntentBearerWallet', { amount: 1500 });
    const paid = await h.app.inject({
      method: 'POST',
      url: '/sandbox/processor/pay',
      payload: { reference: intent.reference, outcome: 'success', webhook: false },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    return { reference: intent.reference };
  },
  buyAirtime: async () => ({ network: 'mtn', phone: phone('4567'), amount: 500, pin: PIN }),
  buyData: async () => {
    const plans = (await get('/api/v1/listDataPlansForCategory', { network: 'mtn', planType: 'SME' })).items;
    const plan = plans.find((p: { plan_id: string }) => p.plan_id === 'mtn-sme-1gb-30d');
    return { network: 'mtn', plan_id: plan.plan_id, phone: phone('4567'), amount: plan.price, pin: PIN };
  },
  subscribeCable: async () => {
    const [plan] = (await get('/api/v1/listCablePlans', { identifier: 'gotv' })).items;
    return { identifier: 'gotv', iuc: '1234564567', plan_id: plan.plan_id, amount: plan.price, phone: phone('0001'), pin: PIN };
  },
  buyElectricity: async () => ({ plan: 'ikeja', meter: '45123454567', type: 'prepaid', amount: 1500, phone: phone('0001'), pin: PIN }),
  fundBet: async () => ({ betting_company: 'bet9ja', customer_id: 'BET4567', amount: 1000, pin: PIN }),
  buyEducationPin: async () => {
    const waec = (await get(vtu('listEducationPins'))).items.find((i: { plan_id: string }) => i.plan_id === 'waec');
    return { exam: 'waec', quantity: 1, phone: phone('4567'), amount: waec.price, pin: PIN };
  },
  buyEsim: async () => {
    const [plan] = (await get(vtu('listEsimPlans'), { destination: 'gb' })).items;
    return { plan_id: plan.plan_id, phone: phone('4567'), amount: plan.price, pin: PIN };
  },
  topUpEsim: async () => {
    const [plan] = (await get(vtu('listEsimPlans'), { destination: 'gb' })).items;
    const esim = await post(vtu('buyEsim'), { plan_id: plan.plan_id, phone: phone('4567'), amount: plan.price, pin: PIN });
    expect(esim.transaction.status).toBe('success');
    return { esim_id: esim.transaction.id, plan_id: plan.plan_id, amount: plan.price, pin: PIN };
  },
  orderSocial: async () => {
    const s = (await get(vtu('listSocialServices'), { platform: 'instagram' })).items.find(
      (x: { service_id: string }) => x.service_id === 'ig-followers',
    );
    const q = await post(vtu('quotePurchase'), { service: 'social', plan_id: s.service_id, quantity: 1000 });
    return { service_id: s.service_id, link: 'https://instagram.com/walk', quantity: 1000, amount: q.total, pin: PIN };
  },
  bookFlight: async () => bookingInput(await offer('ABV')),
  cancelFlightBooking: async () => {
    const booked = await post(vtu('bookFlight'), bookingInput(await offer('PHC')));
    expect(booked.transaction.status).toBe('success');
    return { id: booked.transaction.id, pin: PIN };
  },
};

/** Operators' money actions walked too (no money gate: four-eyes guards them), one of each kind of path. */
const ADMIN_WALKED: Record<string, () => Promise<Record<string, unknown>>> = {
  adminAdjustWallet: async () => ({ userId: u.id, amount: 10, reason: 'claim walk' }),
  adminFundProviderFloat: async () => ({ provider: 'a', amount: 1000 }),
  adminUpdateMarketplaceOrder: async () => {
    const input = await WALKED.createMarketplaceOrder();
    const order = await post('/_serverFn/createMarketplaceOrderBearerMarketplace', input);
    return { id: order.order.id, status: 'cancelled', note: 'claim walk' };
  },
};

async function offer(destination: string) {
  const day = new Date(h.clock.now().getTime() + 20 * DAY).toISOString().slice(0, 10);
  const res = await post(vtu('searchFlights'), { origin: 'LOS', destination, departure_date: day, adults: 1 });
  return res.items[0] as { offer_id: string; price: number };
}
const bookingInput = (o: { offer_id: string; price: number }) => ({
  offer_id: o.offer_id,
  passengers: [{ title: 'mr', first_name: 'Ade', last_name: 'Bello', date_of_birth: '1990-04-01', type: 'adult' }],
  email: 'ade@example.com',
  phone: phone('4567'),
  amount: o.price,
  pin: PIN,
});

beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
  const { db } = h.app.services;
  // Every status a claim takes, and every ledger transaction made, with the database transaction that wrote it.
  await db.execute(sql`CREATE TABLE walk_claims (n serial PRIMARY KEY, user_id uuid, key text, status text, xid bigint)`);
  await db.execute(sql`CREATE TABLE walk_postings (n serial PRIMARY KEY, reference text, xid bigint)`);
  await db.execute(sql`CREATE FUNCTION walk_claim() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO walk_claims (user_id, key, status, xid) VALUES (NEW.user_id, NEW.key, NEW.status, txid_current()); RETURN NEW; END $$`);
  await db.execute(sql`CREATE FUNCTION walk_posting() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO walk_postings (reference, xid) VALUES (NEW.reference, txid_current()); RETURN NEW; END $$`);
  await db.execute(
    sql`CREATE TRIGGER walk_claim AFTER INSERT OR UPDATE OF status ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION walk_claim()`,
  );
  await db.execute(sql`CREATE TRIGGER walk_posting AFTER INSERT ON ledger_transactions FOR EACH ROW EXECUTE FUNCTION walk_posting()`);

  const first = await tier2User(h, { fullName: 'Ada Obi', tier: 3, pin: PIN, username: 'walkcustomer', naira: 500_000 });
  // A loan needs a purchase history and an account a month old.
  for (let i = 0; i < 3; i++) await purchase(h, first.id, 2000);
  h.clock.advance(30 * DAY);
  u = await signIn(h, first.email);
  payee = await user(h, { username: 'walkpayee', tier: 1 });
  admin = await signIn(h, 'admin@example.com');
}, 60_000);
afterAll(async () => h?.close());

/**
 * Calls `op` with a fresh Idempotency-Key; answers the ledger transactions it made and the claim's statuses, each with
 * its database transaction id.
 */
async function callKeyed(op: AnyOperation, input: Record<string, unknown>, who: TestUser) {
  const { db } = h.app.services;
  const [{ n: since }] = await rows<{ n: number }>(db, sql`SELECT COALESCE(max(n), 0)::int AS n FROM walk_postings`);
  const key = `walk-${randomUUID()}`;
  const res = await call(h, op.method, serverFnPath(op), input, { token: who.token, headers: { 'idempotency-key': key } });
  expect(res.statusCode, `${op.name} ${res.body}`).toBe(200);
  const postings = await rows<{ reference: string; xid: string }>(
    db,
    sql`SELECT reference, xid::text AS xid FROM walk_postings WHERE n > ${since} ORDER BY n`,
  );
  const claim = await rows<{ status: string; xid: string }>(
    db,
    sql`SELECT status, xid::text AS xid FROM walk_claims WHERE user_id = ${who.id} AND key = ${key} ORDER BY n`,
  );
  return { postings, claim };
}

/** The claim went through 'committed' in the transaction of the request's first posting, then 'done'. */
function expectMarked(name: string, r: Awaited<ReturnType<typeof callKeyed>>) {
  expect(r.postings.length, `${name} moved no money`).toBeGreaterThan(0);
  expect(
    r.claim.map((c) => c.status),
    name,
  ).toEqual(['in_flight', 'committed', 'done']);
  expect(r.claim[1].xid, `${name}: the mark is not in the transaction of ${r.postings[0].reference}`).toBe(r.postings[0].xid);
}

const moneyOps = allOperations.filter((op) => op.gates?.money);
const opNamed = (name: string) => allOperations.find((op) => op.name === name)!;

describe('registry walk: every money operation marks its Idempotency-Key claim with the money', () => {
  it('every money operation is walked or said to post nothing in its request', () => {
    const unplaced = moneyOps.map((op) => op.name).filter((n) => !(n in WALKED) && !(n in NO_POSTING_IN_REQUEST));
    expect(unplaced).toEqual([]);
    for (const n of [...Object.keys(WALKED), ...Object.keys(NO_POSTING_IN_REQUEST)]) {
      expect(
        moneyOps.map((op) => op.name),
        n,
      ).toContain(n);
    }
    for (const n of Object.keys(ADMIN_WALKED)) expect(authOf(opNamed(n)), n).toBe('admin');
  });

  it('each walked customer operation marks the claim in the transaction of its first posting', { timeout: 120_000 }, async () => {
    for (const [name, inputOf] of Object.entries(WALKED)) {
      const input = await inputOf();
      if (name === 'repayLoan' || name === 'withdrawCheckin') await fundWallet(h, u.id, 5000);
      expectMarked(name, await callKeyed(opNamed(name), input, u));
    }
    expect(payee.id).toBeTruthy();
    await expectLedgerOk(h);
  });

  it("operators' money actions mark the operator's claim the same way", { timeout: 60_000 }, async () => {
    for (const [name, inputOf] of Object.entries(ADMIN_WALKED)) expectMarked(name, await callKeyed(opNamed(name), await inputOf(), admin));
    await expectLedgerOk(h);
  });

  it('an operation that moves no money leaves its claim unmarked (in flight, then done)', async () => {
    const r = await callKeyed(opNamed('createTopupIntent'), { amount: 1500 }, u);
    expect(r.postings).toEqual([]);
    expect(r.claim.map((c) => c.status)).toEqual(['in_flight', 'done']);
  });
});
