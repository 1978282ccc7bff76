import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { allOperations } from '../../src/modules/index.js';
import { authOf, serverFnPath, type AnyOperation } from '../../src/platform/operation.js';
import { call, createHarness, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { grantLevel, setKycTier } from '../helpers/factories.js';
import { kycUser, nuban, upload } from '../kyc/factories.js';
import { diff, fingerprint } from './fingerprint.js';

// Ownership walk: every operation input that names an object (an id, a reference, a file path...)
// is given another user's real object and must answer 404 NOT_FOUND — never the object, never a 403 that
// confirms it exists — and change nothing. A new id-taking input must be covered here or allow-listed.
let h: Harness;
let a: TestUser; // the owner
let b: TestUser; // the intruder
let admin: TestUser;
const PIN = '1234';

/** Inputs that name an object: uuid-typed fields, and the names this code base gives to ids and references. */
function idFields(op: AnyOperation): string[] {
  return Object.entries(op.input.shape as Record<string, any>)
    .filter(([name, schema]) => {
      let s = schema;
      for (let i = 0; i < 5 && ['optional', 'default', 'pipe', 'nullable'].includes(s._zod.def.type); i++)
        s = s._zod.def.innerType ?? s._zod.def.in;
      return s.format === 'uuid' || name === 'id' || /(Id|_id|Path)$/.test(name) || ['reference', 'path', 'needle'].includes(name);
    })
    .map(([name]) => name);
}

/** Id inputs that legitimately name public or not user-owned things, one reason each. */
const ALLOWED: Record<string, string> = {
  'votePoll.pollId': 'polls belong to broadcasts every user sees',
  'listWebhookDeliveries.endpointId': "a filter of the caller's own deliveries: another's endpoint id lists nothing",
  'votePoll.optionId': 'an option of a public poll',
  'verifyReceipt.needle': 'public receipt verification: anyone holding a receipt may check it',
  'createMarketplaceOrder.productId': 'products are a public catalogue',
  'submitSubscriptionOrder.planId': 'plans are a public catalogue',
  'upsertSchedule.planId': 'a data plan id of the public VTU catalogue',
  'buyData.plan_id': 'a data plan id of the public VTU catalogue',
  'subscribeCable.plan_id': 'a cable plan id of the public VTU catalogue',
  'quotePurchase.plan_id': 'a data or cable plan id of the public VTU catalogue',
  'fundBet.customer_id': "the betting company's customer number, checked upstream, not our object",
  'verifyBetAccount.customer_id': "the betting company's customer number, checked upstream, not our object",
  'buyEducationPin.profile_id': "the exam body's candidate profile, checked upstream, not our object",
  'buyEsim.plan_id': 'an eSIM plan id of the public VTU catalogue',
  'topUpEsim.plan_id': 'an eSIM plan id of the public VTU catalogue',
  'orderSocial.service_id': 'a social service id of the public VTU catalogue',
  'claimSession.deviceId': 'a device label the client chooses for its own session',
  'heartbeatSession.deviceId': 'a device label the client chooses for its own session',
};
// Operator operations act on every user's objects by design (docs/design.md §5: role admin); they are not walked.
const isOperator = (op: AnyOperation) => authOf(op) === 'admin';

interface Case {
  /** `${operation}.${field}` */
  key: string;
  /** Input for the intruder (and the owner), with the owner's object in the field under test. */
  input: () => Record<string, unknown>;
  /** Puts the intruder where the operation gets as far as the id (e.g. the KYC tier a submission needs). */
  prepare?: () => Promise<void>;
}

const ids: Record<string, string> = {};

function must<T = any>(res: { statusCode: number; body: string; json(): any }, what: string): T {
  if (res.statusCode !== 200) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json();
}

const opByName = new Map(allOperations.map((o) => [o.name, o]));
const invoke = (opName: string, input: Record<string, unknown>, u: TestUser) => {
  const op = opByName.get(opName)!;
  return call(h, op.method, serverFnPath(op), input, { token: u.token });
};

/** A booking of the owner's held flight offer (one adult, the offer's price). */
const flightBooking = () => ({
  offer_id: ids.flightOffer,
  passengers: [{ title: 'mrs', first_name: 'Ada', last_name: 'Obi', date_of_birth: '1990-01-01', type: 'adult' }],
  email: 'ada@example.com',
  phone: '08031234567',
  amount: Number(ids.flightPrice),
});

const CASES: Case[] = [
  { key: 'getTopupIntent.reference', input: () => ({ reference: ids.topupRef }) },
  { key: 'getTopupReceipt.reference', input: () => ({ reference: ids.topupRef }) },
  { key: 'verifyProcessorTopup.reference', input: () => ({ reference: ids.processorRef }) },
  { key: 'getWithdrawal.reference', input: () => ({ reference: ids.withdrawalRef }) },
  { key: 'getMyVtuTransaction.id', input: () => ({ id: ids.vtuId }) },
  { key: 'topUpEsim.esim_id', input: () => ({ esim_id: ids.esimId, plan_id: ids.esimPlan, amount: Number(ids.esimPrice), pin: PIN }) },
  { key: 'getMyEsimUsage.id', input: () => ({ id: ids.esimId }) },
  { key: 'getMySocialOrderProgress.id', input: () => ({ id: ids.socialId }) },
  { key: 'getFlightOffer.offer_id', input: () => ({ offer_id: ids.flightOffer }) },
  { key: 'bookFlight.offer_id', input: () => ({ ...flightBooking(), pin: PIN }) },
  { key: 'cancelFlightBooking.id', input: () => ({ id: ids.flightId, pin: PIN }) },
  { key: 'getMyAirtimeCashRequest.id', input: () => ({ id: ids.airtimeCashId }) },
  { key: 'checkMyAirtimeCashRequest.id', input: () => ({ id: ids.airtimeCashId }) },
  {
    key: 'createTransactionReport.reference',
    input: () => ({ reference: ids.vtuRef, category: 'wrong_amount', description: 'I was charged the wrong amount' }),
  },
  { key: 'signReceipt.reference', input: () => ({ reference: ids.vtuRef }) },
  { key: 'breakSavingsLock.lockId', input: () => ({ lockId: ids.lockId }) },
  { key: 'listThreadMessages.threadId', input: () => ({ threadId: ids.threadId }) },
  { key: 'sendSupportMessage.threadId', input: () => ({ threadId: ids.threadId, body: 'hello from someone else' }) },
  { key: 'getMarketplaceOrder.id', input: () => ({ id: ids.marketOrderId }) },
  { key: 'getSubscriptionOrder.id', input: () => ({ id: ids.subOrderId }) },
  {
    key: 'upsertSchedule.id',
    input: () => ({
      id: ids.scheduleId,
      service: 'airtime',
      network: 'mtn',
      phone: '08031234567',
      amount: 300,
      frequency: 'daily',
      time: '09:15',
      pin: PIN,
    }),
  },
  { key: 'toggleSchedule.id', input: () => ({ id: ids.scheduleId, active: false }) },
  { key: 'listScheduleRuns.id', input: () => ({ id: ids.scheduleId }) },
  { key: 'markNotificationRead.id', input: () => ({ id: ids.notificationId }) },
  { key: 'getKycFileUrl.path', input: () => ({ path: ids.kycPath }) },
  { key: 'submitNinKyc.slipPath', input: () => ({ nin: '12345678901', slipPath: ids.kycPath }), prepare: () => setKycTier(h, b.id, 1) },
  {
    key: 'submitBankKyc.documentPath',
    input: () => ({ bankCode: '058', accountNumber: nuban('058'), documentType: 'national_id', documentPath: ids.kycPath }),
    prepare: () => setKycTier(h, b.id, 2),
  },
  { key: 'notifyLogin.sessionId', input: () => ({ sessionId: a.sessionId, device: 'test' }) },
  { key: 'renameBeneficiary.id', input: () => ({ id: ids.beneficiaryId, label: 'Not yours' }) },
  { key: 'rollApiKey.id', input: () => ({ id: ids.apiKeyId }) },
  { key: 'resendWebhookDelivery.id', input: () => ({ id: ids.deliveryId }) },
  { key: 'getEpinBatch.id', input: () => ({ id: ids.epinBatchId }) },
  { key: 'downloadEpinBatch.id', input: () => ({ id: ids.epinBatchId, format: 'csv' }) },
  { key: 'markEpinsSold.id', input: () => ({ id: ids.epinBatchId, serials: ['SN000000000000'] }) },
  // Last: the owner's check below deletes the schedule the cases above walk.
  { key: 'deleteSchedule.id', input: () => ({ id: ids.scheduleId }) },
  { key: 'deleteBeneficiary.id', input: () => ({ id: ids.beneficiaryId }) },
  { key: 'deletePasskey.id', input: () => ({ id: ids.passkeyId }) },
  { key: 'revokeApiKey.id', input: () => ({ id: ids.apiKeyId }) },
  { key: 'disableWebhookEndpoint.id', input: () => ({ id: ids.endpointId }) },
];

beforeAll(async () => {
  h = await createHarness();
  admin = await signIn(h, 'admin@example.com');
  a = await kycUser(h);
  b = await kycUser(h);
  for (const u of [a, b]) {
    await h.app.services.pins.set(u.id, 'transaction', PIN);
    await setKycTier(h, u.id, 2);
    await fundWallet(h, u.id, 50_000);
    await grantLevel(h, u.id, 'agent'); // live API keys and recharge cards (issue 45)
  }

  // The owner's real objects, created through the API.
  const intent = must(await invoke('createTopupIntent', { amount: 750 }, a), 'createTopupIntent');
  ids.topupRef = intent.reference;
  must(
    await h.app.inject({ method: 'POST', url: '/sandbox/processor/pay', payload: { reference: intent.reference, outcome: 'success' } }),
    'sandbox pay',
  );
  ids.processorRef = must(
    await invoke('startProcessorTopup', { amount: 1000, email: a.email, callbackUrl: `${h.config.publicUrl}/paid` }, a),
    'startProcessorTopup',
  ).reference;
  ids.withdrawalRef = must(
    await invoke('withdrawToBank', { bankCode: '058', accountNumber: '0123456789', amount: 100, pin: PIN }, a),
    'withdrawToBank',
  ).withdrawal.reference;

  // The owner's API key and webhook endpoint (issue 45); the purchase below gives the endpoint a delivery.
  ids.apiKeyId = must(await invoke('createApiKey', { name: 'shop', mode: 'live', scopes: ['read'] }, a), 'createApiKey').key.id;
  ids.endpointId = must(
    await invoke('createWebhookEndpoint', { url: 'http://127.0.0.1:9/hook', events: ['purchase.succeeded'] }, a),
    'createWebhookEndpoint',
  ).endpoint.id;
  const vtu = must(
    await invoke('buyAirtime', { network: 'mtn', phone: '08031234567', amount: 100, pin: PIN }, a),
    'buyAirtime',
  ).transaction;
  ids.vtuId = vtu.id;
  ids.vtuRef = vtu.reference;
  // Travel eSIM and social order (issue 32): the owner's eSIM (a top-up names it by its transaction) and order.
  const esimPlan = must(await invoke('listEsimPlans', { destination: 'gb' }, a), 'listEsimPlans').items[0];
  ids.esimPlan = esimPlan.plan_id;
  ids.esimPrice = String(esimPlan.price);
  ids.esimId = must(
    await invoke('buyEsim', { plan_id: esimPlan.plan_id, phone: '08031234567', amount: esimPlan.price, pin: PIN }, a),
    'buyEsim',
  ).transaction.id;
  const socialTotal = must(
    await invoke('quotePurchase', { service: 'social', plan_id: 'ig-likes', quantity: 100 }, a),
    'quotePurchase',
  ).total;
  ids.socialId = must(
    await invoke(
      'orderSocial',
      { service_id: 'ig-likes', link: 'https://instagram.com/p/owner', quantity: 100, amount: socialTotal, pin: PIN },
      a,
    ),
    'orderSocial',
  ).transaction.id;
  // Flights (issue 32): the owner's held offer (the cheapest of a search) and a ticketed booking of it.
  await fundWallet(h, a.id, 150_000);
  const departure = new Date(h.clock.now().getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
  const offers = must(
    await invoke('searchFlights', { origin: 'LOS', destination: 'ABV', departure_date: departure }, a),
    'searchFlights',
  ).items;
  const cheapest = offers.reduce((x: any, y: any) => (y.price < x.price ? y : x));
  ids.flightOffer = cheapest.offer_id;
  ids.flightPrice = String(cheapest.price);
  ids.flightId = must(await invoke('bookFlight', { ...flightBooking(), pin: PIN }, a), 'bookFlight').transaction.id;
  // Airtime-to-cash (issue 32): from a sending number the owner verified; nothing ever arrives from a number ending 5555.
  await h.app.services.db.execute(
    sql`INSERT INTO airtime_cash_numbers (user_id, phone, verified_at) VALUES (${a.id}, '08035555555', now())`,
  );
  ids.airtimeCashId = must(
    await invoke('requestAirtimeCash', { network: 'mtn', phone: '08035555555', amount: 1000, pin: PIN }, a),
    'requestAirtimeCash',
  ).request.id;

  ids.lockId = must(await invoke('createSavingsLock', { amount: 3650, days: 365, pin: PIN }, a), 'createSavingsLock').lock.id;
  ids.threadId = must(await invoke('getOrCreateThread', {}, a), 'getOrCreateThread').thread.id;
  must(await invoke('sendSupportMessage', { threadId: ids.threadId, body: 'my airtime did not arrive' }, a), 'sendSupportMessage');

  const product = must(
    await invoke('adminCreateProduct', { name: 'Phone case', price: 1500, stock: 10 }, admin),
    'adminCreateProduct',
  ).product;
  const delivery = { fullName: 'Ada Obi', phone: '08031234567', address: '12 Allen Avenue', city: 'Ikeja', state: 'Lagos' };
  ids.marketOrderId = must(
    await invoke('createMarketplaceOrder', { productId: product.id, quantity: 1, delivery, pin: PIN }, a),
    'createMarketplaceOrder',
  ).order.id;
  const plan = must(
    await invoke('adminCreateSubscriptionPlan', { service: 'Netflix', category: 'streaming', name: 'Premium 1 month', price: 7000 }, admin),
    'adminCreateSubscriptionPlan',
  ).plan;
  ids.subOrderId = must(
    await invoke('submitSubscriptionOrder', { planId: plan.id, account: 'ada@example.com', pin: PIN }, a),
    'submitSubscriptionOrder',
  ).order.id;

  ids.scheduleId = must(
    await invoke(
      'upsertSchedule',
      { service: 'airtime', network: 'mtn', phone: '08031234567', amount: 200, frequency: 'daily', time: '11:30', pin: PIN },
      a,
    ),
    'upsertSchedule',
  ).schedule.id;

  ids.kycPath = await upload(h, a.token);
  ids.beneficiaryId = must(
    await invoke('saveBeneficiary', { kind: 'phone', label: 'Mum', recipient: '08031234567', provider: 'mtn' }, a),
    'saveBeneficiary',
  ).beneficiary.id;
  // A passkey of the owner's (its credential as an authenticator would have given it; deletePasskey reads only the row).
  ids.passkeyId = '6f1c2b1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';
  await h.app.services.db.execute(
    sql`INSERT INTO passkeys (id, user_id, credential_id, public_key, name, created_at)
        VALUES (${ids.passkeyId}, ${a.id}, 'owner-credential', 'owner-public-key', 'Phone', now())`,
  );
  // Recharge cards (issue 45): a batch of the owner's, bought at a level that may buy them (Agent, granted above).
  ids.epinBatchId = must(await invoke('buyEpins', { network: 'mtn', denomination: 100, quantity: 2, pin: PIN }, a), 'buyEpins').batch.id;

  await h.app.services.jobs.drain();
  const notes = must(await invoke('listNotifications', {}, a), 'listNotifications').items;
  if (!notes.length) throw new Error('the owner has no notification to walk');
  ids.notificationId = notes[0].id;
  await h.app.services.jobs.drain();
  ids.deliveryId = must(await invoke('listWebhookDeliveries', {}, a), 'listWebhookDeliveries').items[0]?.id;
  if (!ids.deliveryId) throw new Error('the owner has no webhook delivery to walk');
}, 120_000);
afterAll(async () => h?.close());

describe('ownership walk', () => {
  it('every id-taking input of a user operation is walked here or allow-listed with a reason', () => {
    const covered = new Set([...CASES.map((c) => c.key), ...Object.keys(ALLOWED)]);
    const found = allOperations.filter((op) => !isOperator(op)).flatMap((op) => idFields(op).map((f) => `${op.name}.${f}`));
    expect(
      found.filter((k) => !covered.has(k)),
      'id inputs neither walked nor allow-listed',
    ).toEqual([]);
    // No stale entry: every walked or allowed key still names a real input.
    expect(
      [...covered].filter((k) => !found.includes(k)),
      'entries naming no id input',
    ).toEqual([]);
  });

  it("another user's object answers 404 NOT_FOUND and changes nothing", { timeout: 60_000 }, async () => {
    const problems: string[] = [];
    for (const c of CASES) {
      const opName = c.key.split('.')[0];
      await c.prepare?.();
      const before = await fingerprint(h);
      const res = await invoke(opName, c.input(), b);
      await h.app.services.jobs.drain();
      const after = await fingerprint(h);
      if (res.statusCode !== 404 || res.json().error?.code !== 'NOT_FOUND')
        problems.push(`${c.key}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      const changed = diff(before, after);
      if (changed.length) problems.push(`${c.key} changed ${changed.join(', ')}`);
    }
    expect(problems).toEqual([]);
  });

  it('the same calls by the owner find the object (the walked ids are real)', async () => {
    const problems: string[] = [];
    // Runs after the intruder's walk: some owner calls change state (toggle, delete, break a lock).
    for (const c of CASES) {
      await setKycTier(h, a.id, c.key.startsWith('submitNinKyc') ? 1 : 2);
      const res = await invoke(c.key.split('.')[0], c.input(), a);
      if (res.statusCode === 404) problems.push(`${c.key}: owner got 404 ${res.body.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  });
});
