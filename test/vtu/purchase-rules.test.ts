import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { call, createHarness, expectLedgerOk, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { approvalThresholds, setKycTier } from '../helpers/factories.js';
import { buyer, getTx, mtn, PIN, reconcile, VTU_ENV, walletBalance } from './helpers.js';

let h: Harness;
let admin: TestUser;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
  admin = await signIn(h, 'admin@example.com');
});
afterAll(async () => h.close());

const countRows = async (table: 'vtu_transactions' | 'ledger_entries', userId: string) => {
  const q =
    table === 'vtu_transactions'
      ? sql`SELECT count(*)::int AS n FROM vtu_transactions WHERE user_id = ${userId}`
      : sql`SELECT count(*)::int AS n FROM ledger_entries e JOIN accounts a ON a.id = e.account_id WHERE a.user_id = ${userId}`;
  return (await rows<{ n: number }>(h.app.services.db, q))[0].n;
};

async function dataPlan(token: string, id = 'mtn-sme-1gb-30d') {
  const items = (await call(h, 'GET', '/api/v1/listDataPlans', { network: 'mtn' }, { token })).json().items;
  return items.find((p: any) => p.plan_id === id);
}

describe('spec rule 5: network prefix before any debit', () => {
  it('NETWORK_MISMATCH leaves balance, ledger and transactions untouched, and comes before the PIN check', async () => {
    const u = await buyer(h, 5000);
    const entries = await countRows('ledger_entries', u.id);
    for (const [path, extra] of [
      ['/api/v1/buyAirtime', { amount: 500 }],
      ['/api/v1/buyData', { plan_id: 'mtn-sme-1gb-30d', amount: 294 }],
    ] as const) {
      const glo = await call(h, 'POST', path, { network: 'mtn', phone: '08051234567', pin: '0000', ...extra }, { token: u.token });
      expect(glo.statusCode).toBe(400);
      expect(glo.json().error.code).toBe('NETWORK_MISMATCH');
      expect(glo.json().error.message).toMatch(/Glo/);
    }
    // +234 form normalises before the check.
    const intl = await call(
      h,
      'POST',
      '/api/v1/buyAirtime',
      { network: 'airtel', phone: '+2348031234567', amount: 100, pin: PIN },
      { token: u.token },
    );
    expect(intl.json().error.code).toBe('NETWORK_MISMATCH');
    expect(await walletBalance(h, u.id)).toBe(5000);
    expect(await countRows('ledger_entries', u.id)).toBe(entries);
    expect(await countRows('vtu_transactions', u.id)).toBe(0);
    // A wrong PIN was never counted: the mismatch answered first.
    const ok = await call(
      h,
      'POST',
      '/api/v1/buyAirtime',
      { network: 'mtn', phone: mtn('1234'), amount: 100, pin: PIN },
      { token: u.token },
    );
    expect(ok.statusCode).toBe(200);
    await expectLedgerOk(h);
  });

  it('ported: true skips the prefix check and is recorded on the transaction', async () => {
    const u = await buyer(h, 5000);
    const res = await call(
      h,
      'POST',
      '/api/v1/buyAirtime',
      { network: 'airtel', phone: '08031234567', amount: 200, pin: PIN, ported: true },
      { token: u.token },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().transaction).toMatchObject({ status: 'success', network: 'airtel', ported: true, recipient: '08031234567' });
  });
});

describe('gates and money checks (nothing is charged when refused)', () => {
  it('PIN, KYC tier, funds, limits', async () => {
    const u = await buyer(h, 1000);
    const body = { network: 'mtn', phone: mtn('1234'), amount: 500, pin: '9999' };
    expect((await call(h, 'POST', '/api/v1/buyAirtime', body, { token: u.token })).json().error.code).toBe('INVALID_PIN');
    const noPin = await signIn(h);
    await setKycTier(h, noPin.id, 1);
    expect((await call(h, 'POST', '/api/v1/buyAirtime', { ...body, pin: PIN }, { token: noPin.token })).json().error.code).toBe(
      'PIN_NOT_SET',
    );
    await setKycTier(h, u.id, 0);
    const tier = await call(h, 'POST', '/api/v1/buyAirtime', { ...body, pin: PIN }, { token: u.token });
    expect(tier.statusCode).toBe(403);
    expect(tier.json().error.code).toBe('KYC_TIER_REQUIRED');
    await setKycTier(h, u.id, 1);
    const poor = await call(h, 'POST', '/api/v1/buyAirtime', { ...body, amount: 1500, pin: PIN }, { token: u.token });
    expect(poor.json().error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await walletBalance(h, u.id)).toBe(1000);
    expect(await countRows('vtu_transactions', u.id)).toBe(0);

    // Tier 1 daily outflow (docs/design.md §6: ₦50,000).
    const rich = await buyer(h, 80_000);
    const big = await call(h, 'POST', '/api/v1/buyAirtime', { ...body, amount: 50_000, pin: PIN }, { token: rich.token });
    expect(big.json().transaction.status).toBe('success');
    const over = await call(h, 'POST', '/api/v1/buyAirtime', { ...body, amount: 100, pin: PIN }, { token: rich.token });
    expect(over.json().error.code).toBe('LIMIT_EXCEEDED');
    expect(await walletBalance(h, rich.id)).toBe(30_000);
    await expectLedgerOk(h);
  });

  it('validation: electricity minimum 1,000, unknown plans, JAMB profile id, junk never 500', async () => {
    const u = await buyer(h, 10_000);
    const low = await call(
      h,
      'POST',
      '/api/v1/buyElectricity',
      { plan: 'ikeja', meter: '45123451234', type: 'prepaid', amount: 999, phone: mtn('1234'), pin: PIN },
      { token: u.token },
    );
    expect(low.statusCode).toBe(400);
    expect(low.json().error.message).toBe('Amount must be at least ₦1,000');
    const plan = await call(
      h,
      'POST',
      '/api/v1/buyData',
      { network: 'mtn', plan_id: 'nope', phone: mtn('1234'), amount: 100, pin: PIN },
      { token: u.token },
    );
    expect(plan.json().error.code).toBe('VALIDATION_FAILED');
    const jamb = await call(
      h,
      'POST',
      '/api/v1/buyEducationPin',
      { exam: 'jamb-utme', quantity: 1, phone: mtn('1234'), amount: 6300, pin: PIN },
      { token: u.token },
    );
    expect(jamb.json().error.message).toMatch(/profile_id/);
    for (const junk of [{ network: 'xyz' }, { phone: 12 }, { amount: 'lots' }, { amount: 1.234 }, { extra: true }]) {
      const r = await call(
        h,
        'POST',
        '/api/v1/buyAirtime',
        { network: 'mtn', phone: mtn('1234'), amount: 100, pin: PIN, ...junk },
        { token: u.token },
      );
      expect(r.statusCode).toBe(400);
    }
    expect(await walletBalance(h, u.id)).toBe(10_000);
  });

  it('an Idempotency-Key replay does not charge twice', async () => {
    const u = await buyer(h, 5000);
    const headers = { 'idempotency-key': 'buy-once-1' };
    const body = { network: 'mtn', phone: mtn('1234'), amount: 700, pin: PIN };
    const a = await call(h, 'POST', '/api/v1/buyAirtime', body, { token: u.token, headers });
    const b = await call(h, 'POST', '/api/v1/buyAirtime', body, { token: u.token, headers });
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.json().transaction.id).toBe(a.json().transaction.id);
    expect(await walletBalance(h, u.id)).toBe(4300);
  });
});

describe('prices and markups', () => {
  it('quotePrice applies the service markup and a provider-specific one set by an operator', async () => {
    const u = await buyer(h, 0);
    const q = await call(h, 'POST', '/api/v1/quotePrice', { service: 'data', wholesale: 280 }, { token: u.token });
    expect(q.json()).toMatchObject({ ok: true, service: 'data', provider: 'a', wholesale: 280, markup: 14, retail: 294 });
    const set = await call(
      h,
      'POST',
      '/_serverFn/adminSetMarkupBearerAdmin',
      { service: 'cable', provider: 'c', kind: 'flat', value: 50 },
      { token: admin.token },
    );
    expect(set.statusCode).toBe(200);
    const c = await call(h, 'POST', '/api/v1/quotePrice', { service: 'cable', wholesale: 1575 }, { token: u.token });
    expect(c.json()).toMatchObject({ provider: 'c', markup: 50, retail: 1625 });
    const other = await call(h, 'POST', '/api/v1/quotePrice', { service: 'cable', provider: 'd', wholesale: 1575 }, { token: u.token });
    expect(other.json()).toMatchObject({ markup: 100, retail: 1675 });
    expect(
      (
        await call(
          h,
          'POST',
          '/_serverFn/adminSetMarkupBearerAdmin',
          { service: 'data', kind: 'percent', value: 150 },
          { token: admin.token },
        )
      ).statusCode,
    ).toBe(400);
    expect(
      (await call(h, 'POST', '/_serverFn/adminSetMarkupBearerAdmin', { service: 'data', kind: 'flat', value: 1 }, { token: u.token }))
        .statusCode,
    ).toBe(403);
    const list = await call(h, 'GET', '/_serverFn/adminListMarkupsBearerAdmin', undefined, { token: admin.token });
    expect(list.json().items).toContainEqual(expect.objectContaining({ service: 'cable', provider: 'c', kind: 'flat', value: 50 }));
  });

  it('PRICE_CHANGED (409) when the amount is not the current retail; nothing is charged', async () => {
    const u = await buyer(h, 5000);
    const plan = await dataPlan(u.token);
    const stale = await call(
      h,
      'POST',
      '/api/v1/buyData',
      { network: 'mtn', plan_id: plan.plan_id, phone: mtn('1234'), amount: plan.price - 1, pin: PIN },
      { token: u.token },
    );
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('PRICE_CHANGED');
    await call(h, 'POST', '/_serverFn/adminSetMarkupBearerAdmin', { service: 'data', kind: 'percent', value: 10 }, { token: admin.token });
    const old = await call(
      h,
      'POST',
      '/api/v1/buyData',
      { network: 'mtn', plan_id: plan.plan_id, phone: mtn('1234'), amount: plan.price, pin: PIN },
      { token: u.token },
    );
    expect(old.json().error.code).toBe('PRICE_CHANGED');
    const fresh = await dataPlan(u.token);
    expect(fresh.price).toBe(308);
    const ok = await call(
      h,
      'POST',
      '/api/v1/buyData',
      { network: 'mtn', plan_id: plan.plan_id, phone: mtn('1234'), amount: fresh.price, pin: PIN },
      { token: u.token },
    );
    expect(ok.json().transaction).toMatchObject({ status: 'success', amount: 308, planId: 'mtn-sme-1gb-30d' });
    expect(await walletBalance(h, u.id)).toBe(5000 - 308);
    await call(h, 'POST', '/_serverFn/adminSetMarkupBearerAdmin', { service: 'data', kind: 'percent', value: 5 }, { token: admin.token });
    await expectLedgerOk(h);
  });
});

describe('catalogues', () => {
  it('are cached for 30 minutes on the service clock (shared through the database) and say so in Cache-Control', async () => {
    const u = await buyer(h, 0);
    const fetchedAt = async () =>
      (
        await rows<{ fetched_at: Date }>(
          h.app.services.db,
          sql`SELECT fetched_at FROM vtu_catalogue_cache WHERE key = 'c:cable_providers:'`,
        )
      )[0]?.fetched_at;
    const first = await call(h, 'GET', '/api/v1/listCableProviders', undefined, { token: u.token });
    expect(first.headers['cache-control']).toBe('private, max-age=1800');
    expect(first.json().items.map((c: any) => c.id)).toEqual(['dstv', 'gotv', 'startimes', 'showmax']);
    const t0 = new Date(await fetchedAt()).getTime();
    // Access tokens live 15 minutes: a fresh sign-in after each jump.
    h.clock.advance(29 * 60_000);
    expect((await call(h, 'GET', '/api/v1/listCableProviders', undefined, { token: (await signIn(h)).token })).statusCode).toBe(200);
    expect(new Date(await fetchedAt()).getTime()).toBe(t0);
    h.clock.advance(2 * 60_000);
    expect((await call(h, 'GET', '/api/v1/listCableProviders', undefined, { token: (await signIn(h)).token })).statusCode).toBe(200);
    expect(new Date(await fetchedAt()).getTime()).toBe(t0 + 31 * 60_000);
  });

  it('every catalogue answers with retail prices and the documented shapes', async () => {
    const u = await buyer(h, 0);
    const get = async (name: string, q?: Record<string, string>) => {
      const r = await call(h, 'GET', `/api/v1/${name}`, q, { token: u.token });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().items;
    };
    expect((await get('listAirtimeNetworks')).map((n: any) => n.id)).toEqual(['mtn', 'airtel', 'glo', '9mobile']);
    expect((await get('listDataNetworks')).map((n: any) => n.id)).toEqual(['mtn', 'airtel', 'glo', '9mobile']);
    expect((await get('listDataPlanTypes', { network: 'mtn' })).map((t: any) => t.planType)).toEqual(['SME', 'CG', 'GIFTING']);
    const plans = await get('listDataPlansForCategory', { network: 'glo', planType: 'cg' });
    expect(plans[0]).toEqual({
      plan_id: 'glo-cg-1gb-30d',
      network: 'glo',
      planType: 'CG',
      name: '1.0GB CG',
      validity: '30 days',
      price: 283.5,
    });
    expect((await get('listCablePlans', { identifier: 'dstv' }))[0]).toEqual({
      plan_id: 'dstv-padi',
      identifier: 'dstv',
      name: 'DStv Padi',
      price: 3000,
    }); // provider C cable markup is ₦50 since the quote test
    expect(await get('listElectricityPlans')).toHaveLength(12);
    expect((await get('listBetCompanies')).map((b: any) => b.id)).toContain('bet9ja');
    const bad = await call(h, 'GET', '/api/v1/listDataPlans', { network: 'vodafone' }, { token: u.token });
    expect(bad.statusCode).toBe(400);
    expect((await call(h, 'GET', '/api/v1/listDataPlans', { network: 'mtn' })).statusCode).toBe(401);
  });
});

describe('verification', () => {
  it('finds customers and answers 404 for unknown ones (sandbox: ending 9999)', async () => {
    const u = await buyer(h, 0);
    const iuc = await call(h, 'POST', '/api/v1/verifyCableIUC', { iuc: '1234561234', identifier: 'dstv' }, { token: u.token });
    expect(iuc.json()).toMatchObject({ ok: true, customerName: 'Sandbox Customer 1234' });
    expect(
      (await call(h, 'POST', '/api/v1/verifyCableIUC', { iuc: '1234569999', identifier: 'dstv' }, { token: u.token })).statusCode,
    ).toBe(404);
    const meter = await call(h, 'POST', '/api/v1/verifyMeter', { meter: '45123451234', plan: 'eko', type: 'postpaid' }, { token: u.token });
    expect(meter.json()).toMatchObject({ customerName: 'Sandbox Customer 1234', type: 'postpaid' });
    expect(
      (await call(h, 'POST', '/api/v1/verifyMeter', { meter: '45123459999', plan: 'eko', type: 'prepaid' }, { token: u.token })).statusCode,
    ).toBe(404);
    const bet = await call(
      h,
      'POST',
      '/api/v1/verifyBetAccount',
      { betting_company: 'sportybet', customer_id: 'SP1234' },
      { token: u.token },
    );
    expect(bet.json()).toMatchObject({ customerName: 'Sandbox Punter 1234' });
    expect(
      (await call(h, 'POST', '/api/v1/verifyBetAccount', { betting_company: 'sportybet', customer_id: 'SP9999' }, { token: u.token }))
        .statusCode,
    ).toBe(404);
  });
});

describe('transactions of the caller', () => {
  it('lists own transactions newest first with status and service filters; another user gets 404', async () => {
    const u = await buyer(h, 20_000);
    await call(h, 'POST', '/api/v1/buyAirtime', { network: 'mtn', phone: mtn('1234'), amount: 100, pin: PIN }, { token: u.token });
    h.clock.advance(1000);
    await call(h, 'POST', '/api/v1/buyAirtime', { network: 'mtn', phone: mtn('1111'), amount: 100, pin: PIN }, { token: u.token });
    h.clock.advance(1000);
    const post = await call(
      h,
      'POST',
      '/api/v1/buyElectricity',
      { plan: 'abuja', meter: '45123451234', type: 'postpaid', amount: 1000, phone: mtn('1234'), pin: PIN },
      { token: u.token },
    );
    expect(post.json().transaction.token).toBeUndefined(); // postpaid: no token
    const all = (await call(h, 'GET', '/api/v1/listMyVtuTransactions', { limit: 2 }, { token: u.token })).json();
    expect(all.items.map((t: any) => t.service)).toEqual(['electricity', 'airtime']);
    expect(all.hasMore).toBe(true);
    const failed = (await call(h, 'GET', '/api/v1/listMyVtuTransactions', { status: 'failed' }, { token: u.token })).json();
    expect(failed.items).toHaveLength(1);
    expect(failed.items[0]).toMatchObject({ status: 'failed', recipient: mtn('1111') });
    const elec = (await call(h, 'GET', '/api/v1/listMyVtuTransactions', { service: 'electricity' }, { token: u.token })).json();
    expect(elec.items).toHaveLength(1);
    expect((await call(h, 'GET', '/api/v1/listMyVtuTransactions', { status: 'weird' }, { token: u.token })).statusCode).toBe(400);

    const other = await buyer(h, 0);
    const theirs = await call(h, 'POST', '/api/v1/getMyVtuTransaction', { id: post.json().transaction.id }, { token: other.token });
    expect(theirs.statusCode).toBe(404);
    expect(
      (await call(h, 'POST', '/api/v1/getMyVtuTransaction', { id: '00000000-0000-4000-8000-000000000000' }, { token: u.token })).statusCode,
    ).toBe(404);
    expect((await call(h, 'GET', '/api/v1/listMyVtuTransactions', undefined, { token: other.token })).json().items).toEqual([]);
  });

  it('a delivery notifies the buyer and emits vtu.succeeded once', async () => {
    const seen: string[] = [];
    h.app.services.events.on('vtu.succeeded', (e) => (seen.push(e.transactionId), null));
    const u = await buyer(h, 5000);
    const res = await call(
      h,
      'POST',
      '/api/v1/buyAirtime',
      { network: 'mtn', phone: mtn('2222'), amount: 100, pin: PIN },
      { token: u.token },
    );
    const id = res.json().transaction.id;
    expect(seen).not.toContain(id);
    await reconcile(h);
    await reconcile(h);
    expect(seen.filter((x) => x === id)).toHaveLength(1);
    const n = await rows<{ kind: string }>(h.app.services.db, sql`SELECT kind FROM notifications WHERE user_id = ${u.id}`);
    expect(n.map((x) => x.kind)).toContain('purchase_delivered');
    expect((await getTx(h, u, id)).status).toBe('success');
  });
});

describe('operators', () => {
  it('fund a provider float from the collections pool, requery one transaction, list stuck ones', async () => {
    const admin = await signIn(h, 'admin@example.com');
    const floats = async () => {
      const r = await call(h, 'GET', '/_serverFn/adminListProviderFloatsBearerAdmin', undefined, { token: admin.token });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().items;
    };
    const before = (await floats()).find((f: any) => f.provider === 'd');
    const fund = await call(
      h,
      'POST',
      '/_serverFn/adminFundProviderFloatBearerAdmin',
      { provider: 'd', amount: 25_000 },
      { token: admin.token },
    );
    expect(fund.statusCode, fund.body).toBe(200);
    expect(fund.json().providerBalance).toBe(before.providerBalance + 25_000);
    const after = (await floats()).find((f: any) => f.provider === 'd');
    expect(after).toMatchObject({
      ledgerFloat: before.ledgerFloat + 25_000,
      providerBalance: before.providerBalance + 25_000,
      services: ['betting', 'exam', 'social'],
    });

    const u = await buyer(h, 5000);
    const res = await call(
      h,
      'POST',
      '/api/v1/fundBet',
      { betting_company: 'bet9ja', customer_id: 'BET2222', amount: 500, pin: PIN },
      { token: u.token },
    );
    const id = res.json().transaction.id;
    const early = await call(h, 'POST', '/_serverFn/adminRequeryVtuTransactionBearerAdmin', { id }, { token: admin.token });
    expect(early.json()).toMatchObject({ providerStatus: 'pending', transaction: { status: 'processing' } });
    h.clock.advance(5000);
    const late = await call(h, 'POST', '/_serverFn/adminRequeryVtuTransactionBearerAdmin', { id }, { token: admin.token });
    expect(late.json()).toMatchObject({
      providerStatus: 'delivered',
      transaction: { status: 'success', customerName: 'Sandbox Punter 2222' },
    });
    expect((await call(h, 'POST', '/_serverFn/adminRequeryVtuTransactionBearerAdmin', { id }, { token: u.token })).statusCode).toBe(403);

    // A provider that keeps answering "unknown" (5000: HTTP 5xx and nothing recorded, inside the grace period)
    // is listed for an operator after VTU_STUCK_AFTER_MS instead of being guessed.
    const s = await call(
      h,
      'POST',
      '/api/v1/fundBet',
      { betting_company: 'bet9ja', customer_id: 'BET5000', amount: 500, pin: PIN },
      { token: u.token },
    );
    expect(s.json().transaction.status).toBe('processing');
    const stuck0 = await call(h, 'GET', '/_serverFn/adminListStuckVtuTransactionsBearerAdmin', undefined, { token: admin.token });
    expect(stuck0.json().items.map((t: any) => t.id)).not.toContain(s.json().transaction.id);
    h.clock.advance(11 * 60_000);
    const { token } = await signIn(h, 'admin@example.com');
    const stuck = await call(h, 'GET', '/_serverFn/adminListStuckVtuTransactionsBearerAdmin', undefined, { token });
    expect(stuck.json().items.map((t: any) => t.id)).toContain(s.json().transaction.id);

    // The operator confirms with the provider out of band and resolves it: refunded once, audited.
    const balance = await walletBalance(h, u.id);
    const resolve = (outcome: string) =>
      call(
        h,
        'POST',
        '/_serverFn/adminResolveVtuTransactionBearerAdmin',
        { id: s.json().transaction.id, outcome, note: 'provider support: never received' },
        { token },
      );
    // Every resolution waits for a second operator by default (four-eyes, test/approvals); with the vtuResolution
    // threshold raised above this purchase, one operator's resolution takes effect at once.
    const waits = await resolve('failed');
    expect(waits.json()).toMatchObject({ status: 'pending', transaction: { status: 'processing' } });
    expect(await walletBalance(h, u.id)).toBe(balance);
    await approvalThresholds(h, { vtu_resolution: 1000 });
    const r1 = await resolve('failed');
    expect(r1.statusCode, r1.body).toBe(200);
    expect(r1.json().status).toBe('applied');
    expect(r1.json().transaction).toMatchObject({
      status: 'failed',
      failureReason: 'Resolved by an operator: provider support: never received',
    });
    expect(await walletBalance(h, u.id)).toBe(balance + 500);
    expect((await resolve('delivered')).statusCode).toBe(409);
    // The registry's rows (http/admin-audit.ts): the call that asked for approval, the one that resolved it; the
    // refused third call has its own row, with its error code.
    const audit = await rows(
      h.app.services.db,
      sql`SELECT action FROM audit_log WHERE target_ids @> ARRAY[${s.json().transaction.id}]::text[] AND outcome = 'ok'`,
    );
    expect(audit).toEqual([{ action: 'adminResolveVtuTransaction' }, { action: 'adminResolveVtuTransaction' }]);
    await expectLedgerOk(h);
  });
});
