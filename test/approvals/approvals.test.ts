import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { allOperations } from '../../src/modules/index.js';
import { call, createHarness, expectLedgerOk, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, PIN, user, walletBalance } from '../helpers/factories.js';
import { createIntent, sandboxPay } from '../payments/helpers.js';
import { enrollTotp, grantFor } from '../security/rfc6238.js';

// Issue 30, four-eyes (maker-checker): money actions above their threshold wait for a different operator; nothing
// moves before approval; a request expires after 24 h; concurrent approvals move the money exactly once.
let h: Harness;
let maker: TestUser;
let checker: TestUser;

const op = (name: string) => `/_serverFn/${name}BearerAdmin`;
const post = (name: string, data: Record<string, unknown>, who: TestUser) => call(h, 'POST', op(name), data, { token: who.token });
const get = (name: string, q: Record<string, unknown>, who: TestUser) => call(h, 'GET', op(name), q, { token: who.token });
const ledgerLines = async (reference: string) =>
  (await rows<{ n: number }>(h.app.services.db, sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference = ${reference}`))[0]
    .n;

beforeAll(async () => {
  h = await createHarness({ env: { ADMIN_EMAILS: 'admin@example.com,checker@example.com,third@example.com' } });
  maker = await signIn(h, 'admin@example.com');
  checker = await signIn(h, 'checker@example.com');
});
afterAll(async () => h.close());

describe('four-eyes on wallet adjustments', () => {
  it('waits above the threshold; the maker cannot approve; a second operator approves and the money moves once', async () => {
    const u = await user(h);
    const made = await post('adminAdjustWallet', { userId: u.id, amount: 2500, reason: 'goodwill credit, ticket 7' }, maker);
    expect(made.statusCode, made.body).toBe(200);
    const approval = made.json().approval;
    expect(made.json()).toMatchObject({ status: 'pending', balance: null, reference: null });
    expect(approval).toMatchObject({ action: 'wallet_adjustment', status: 'pending', makerId: maker.id, amount: 2500, subjectId: u.id });
    expect(approval.details).toMatchObject({ userId: u.id, amount: 2500, reason: 'goodwill credit, ticket 7' });
    expect(await walletBalance(h, u.id)).toBe(0);

    const self = await post('adminApproveRequest', { id: approval.id }, maker);
    expect(self.statusCode).toBe(403);
    expect(self.json().error.code).toBe('FORBIDDEN');
    expect(await walletBalance(h, u.id)).toBe(0);

    const ok = await post('adminApproveRequest', { id: approval.id, reason: 'checked the ticket' }, checker);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().approval).toMatchObject({ status: 'approved', checkerId: checker.id, decisionReason: 'checked the ticket' });
    expect(ok.json().approval.result).toMatchObject({ reference: `adj_${approval.id}`, balance: 2500 });
    expect(await walletBalance(h, u.id)).toBe(2500);
    expect((await post('adminApproveRequest', { id: approval.id }, checker)).statusCode).toBe(409);
    expect((await post('adminRejectRequest', { id: approval.id, reason: 'too late' }, checker)).statusCode).toBe(409);
    expect(await ledgerLines(`adj_${approval.id}`)).toBe(1);

    const listed = await get('adminListApprovals', { status: 'approved' }, checker);
    expect(listed.json().items.map((a: { id: string }) => a.id)).toContain(approval.id);
    expect((await get('adminGetApproval', { id: approval.id }, checker)).json().approval.status).toBe('approved');
    expect((await get('adminGetApproval', { id: 'apr_00000000000000000000000000' }, checker)).statusCode).toBe(404);
    expect((await get('adminGetApproval', { id: 'nope' }, checker)).statusCode).toBe(400);
    await expectLedgerOk(h);
  });

  it('under the threshold one operator adjusts at once; a rejection moves nothing and needs a reason', async () => {
    const u = await user(h);
    const small = await post('adminAdjustWallet', { userId: u.id, amount: 999.99, reason: 'small goodwill credit' }, maker);
    expect(small.json()).toMatchObject({ status: 'applied', approval: null, balance: 999.99 });
    // Issue 41: what one operator applies at once adds up over 24 hours; past the threshold the next one waits.
    const big = (await post('adminAdjustWallet', { userId: u.id, amount: -900, reason: 'reverse a duplicate' }, maker)).json();
    expect(big.status).toBe('pending'); // 999.99 + |-900| >= 1,000
    const wait = (await post('adminAdjustWallet', { userId: u.id, amount: 1000, reason: 'at the threshold waits' }, maker)).json();
    expect(wait.status).toBe('pending');
    expect((await post('adminRejectRequest', { id: wait.approval.id }, checker)).statusCode).toBe(400);
    expect((await post('adminRejectRequest', { id: wait.approval.id, reason: 'no ticket' }, maker)).statusCode).toBe(403);
    const no = await post('adminRejectRequest', { id: wait.approval.id, reason: 'no ticket' }, checker);
    expect(no.json().approval).toMatchObject({ status: 'rejected', decisionReason: 'no ticket', checkerId: checker.id });
    expect((await post('adminApproveRequest', { id: wait.approval.id }, checker)).statusCode).toBe(409);
    expect(await walletBalance(h, u.id)).toBe(999.99);
    // A missing customer is refused before any request is made.
    expect(
      (await post('adminAdjustWallet', { userId: '00000000-0000-4000-8000-000000000000', amount: 5000, reason: 'ghost' }, maker))
        .statusCode,
    ).toBe(404);
  });

  it('a request expires after 24 hours (injected clock): it cannot be approved and nothing moves', async () => {
    const u = await user(h);
    const wait = (await post('adminAdjustWallet', { userId: u.id, amount: 5000, reason: 'expires unapproved' }, maker)).json();
    expect(wait.approval.expiresAt).toBe(new Date(h.clock.now().getTime() + 24 * 3600_000).toISOString());
    h.clock.advance(24 * 3600_000 + 1000);
    const c2 = await signIn(h, 'checker@example.com');
    expect((await get('adminGetApproval', { id: wait.approval.id }, c2)).json().approval.status).toBe('expired');
    const expired = await get('adminListApprovals', { status: 'expired' }, c2);
    expect(expired.json().items.map((a: { id: string }) => a.id)).toContain(wait.approval.id);
    const pending = await get('adminListApprovals', { status: 'pending' }, c2);
    expect(pending.json().items.map((a: { id: string }) => a.id)).not.toContain(wait.approval.id);
    const late = await post('adminApproveRequest', { id: wait.approval.id }, c2);
    expect(late.statusCode).toBe(409);
    expect(await walletBalance(h, u.id)).toBe(0);
    maker = await signIn(h, 'admin@example.com');
    checker = c2;
  });

  it('20 concurrent approvals move the money exactly once; the ledger holds', async () => {
    const u = await user(h, { naira: 100 });
    const wait = (await post('adminAdjustWallet', { userId: u.id, amount: 7500, reason: 'raced approval' }, maker)).json();
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('adminApproveRequest', { id: wait.approval.id }, checker)));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c !== 200).every((c) => c === 409)).toBe(true);
    expect(await walletBalance(h, u.id)).toBe(7600);
    expect(await ledgerLines(`adj_${wait.approval.id}`)).toBe(1);
    await expectLedgerOk(h);
  });
});

describe('four-eyes on purchase resolutions and settlement corrections', () => {
  it('a purchase the provider never settles (sandbox 4040) is refunded only after a second operator approves', async () => {
    const b = await buyer(h, 2000);
    const bought = await call(
      h,
      'POST',
      '/_serverFn/buyAirtimeBearerVTU',
      { network: 'mtn', phone: '08031234040', amount: 500, pin: PIN },
      { token: b.token },
    );
    expect(bought.statusCode, bought.body).toBe(200);
    const id = bought.json().transaction.id;
    expect(bought.json().transaction.status).toBe('processing');
    // Every requery answers "unknown": reconciliation and an operator's requery leave it processing.
    for (let i = 0; i < 4; i++) {
      h.clock.advance(10 * 60_000);
      await h.app.services.vtu.reconcileDue();
    }
    maker = await signIn(h, 'admin@example.com');
    checker = await signIn(h, 'checker@example.com');
    const requery = await post('adminRequeryVtuTransaction', { id }, maker);
    expect(requery.json()).toMatchObject({ providerStatus: 'unknown', transaction: { status: 'processing' } });
    const stuck = await get('adminListStuckVtuTransactions', {}, maker);
    expect(stuck.json().items.map((t: { id: string }) => t.id)).toContain(id);
    expect(await walletBalance(h, b.id)).toBe(1500);

    const made = await post('adminResolveVtuTransaction', { id, outcome: 'failed', note: 'provider confirmed: never delivered' }, maker);
    expect(made.json()).toMatchObject({
      status: 'pending',
      transaction: { status: 'processing' },
      approval: { action: 'vtu_resolution', amount: 500 },
    });
    expect(await walletBalance(h, b.id)).toBe(1500);
    const ok = await post('adminApproveRequest', { id: made.json().approval.id }, checker);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().approval.result.transaction).toMatchObject({ id, status: 'failed' });
    expect(await walletBalance(h, b.id)).toBe(2000);
    // A second request for the settled purchase is refused at once.
    expect((await post('adminResolveVtuTransaction', { id, outcome: 'delivered', note: 'changed my mind' }, maker)).statusCode).toBe(409);
    await expectLedgerOk(h);
  });

  it('concurrent approvals of a resolution refund once', async () => {
    const b = await buyer(h, 1000);
    const id = (
      await call(
        h,
        'POST',
        '/_serverFn/buyAirtimeBearerVTU',
        { network: 'mtn', phone: '08031234040', amount: 300, pin: PIN },
        { token: b.token },
      )
    ).json().transaction.id;
    const made = (
      await post('adminResolveVtuTransaction', { id, outcome: 'failed', note: 'provider confirmed: never delivered' }, maker)
    ).json();
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('adminApproveRequest', { id: made.approval.id }, checker)));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    expect(await walletBalance(h, b.id)).toBe(1000);
    await expectLedgerOk(h);
  });

  it('a settlement correction waits for approval, then corrects the wallet against collections', async () => {
    const u = await user(h);
    const i = await createIntent(h, u, 1500);
    await sandboxPay(h, { reference: i.reference, outcome: 'success' });
    await h.app.services.jobs.drain();
    const s = (await get('adminSearchPayments', { kind: 'settlements', reference: i.reference }, maker)).json().items[0];
    expect(s).toMatchObject({ amount: 1500 });
    const made = await post('adminCorrectSettlement', { settlementId: s.id, amount: -500, reason: 'processor reversed ₦500 of it' }, maker);
    expect(made.json()).toMatchObject({ status: 'pending', approval: { action: 'settlement_correction', amount: 500, subjectId: s.id } });
    expect(await walletBalance(h, u.id)).toBe(1500);
    const ok = await post('adminApproveRequest', { id: made.json().approval.id }, checker);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await walletBalance(h, u.id)).toBe(1000);
    expect(
      (await post('adminCorrectSettlement', { settlementId: '00000000-0000-4000-8000-000000000000', amount: 5, reason: 'ghost' }, maker))
        .statusCode,
    ).toBe(404);
    await expectLedgerOk(h);
  });
});

describe('four-eyes settings and gates', () => {
  it('thresholds are settings with get and update (naira); an empty update is refused', async () => {
    const before = (await get('adminGetApprovalSettings', {}, checker)).json();
    expect(before).toMatchObject({ walletAdjustment: 1000, vtuResolution: 0, settlementCorrection: 0 });
    expect((await post('adminUpdateApprovalSettings', {}, maker)).statusCode).toBe(400);
    expect((await post('adminUpdateApprovalSettings', { walletAdjustment: -1 }, maker)).statusCode).toBe(400);
    // Raising a threshold weakens a control: with several admins it waits for another admin (issue 41).
    const after = await post('adminUpdateApprovalSettings', { settlementCorrection: 250.5 }, maker);
    expect(after.json()).toMatchObject({
      walletAdjustment: 1000,
      vtuResolution: 0,
      settlementCorrection: 0,
      change: { status: 'pending' },
    });
    const approved = await post('adminApproveRequest', { id: after.json().change.approvalId }, checker);
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await get('adminGetApprovalSettings', {}, checker)).json()).toMatchObject({ settlementCorrection: 250.5 });
    const back = await post('adminUpdateApprovalSettings', { settlementCorrection: 0 }, maker);
    expect(back.json()).toMatchObject({ settlementCorrection: 0, change: { status: 'applied' } });
  });

  it('a checker with an authenticator approves only with a step-up grant', async () => {
    const third = await signIn(h, 'third@example.com');
    const secret = await enrollTotp(h, third);
    const u = await user(h);
    const wait = (await post('adminAdjustWallet', { userId: u.id, amount: 3000, reason: 'needs a proven checker' }, maker)).json();
    const bare = await post('adminApproveRequest', { id: wait.approval.id }, third);
    expect(bare.json().error.code).toBe('STEP_UP_REQUIRED');
    expect(await walletBalance(h, u.id)).toBe(0);
    const grant = await grantFor(h, third, secret);
    const ok = await call(
      h,
      'POST',
      op('adminApproveRequest'),
      { id: wait.approval.id },
      { token: third.token, headers: { 'x-grant-token': grant } },
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await walletBalance(h, u.id)).toBe(3000);
  });

  it('lists newest first by default, oldest first or by amount when sort says so', async () => {
    const subject = `sort-${Date.now()}`;
    const add = async (n: number, kobo: number) => {
      h.clock.advance(60_000);
      const id = `apr_SORT${String(n).padStart(22, '0')}`;
      await h.app.services.db.execute(sql`INSERT INTO approval_requests
          (id, action, status, maker_id, maker_reason, subject_type, subject_id, amount, payload, created_at, expires_at)
        VALUES (${id}, 'wallet_adjustment', 'rejected', ${maker.id}, 'sort case', 'user', ${subject}, ${kobo}, '{}'::jsonb,
                ${h.clock.now()}, ${h.clock.now()})`);
      return id;
    };
    const a = await add(1, 500_00);
    const b = await add(2, 90_000_00);
    const c = await add(3, 2_000_00);
    const order = async (sort?: string) =>
      (await get('adminListApprovals', { status: 'rejected', limit: 100, ...(sort ? { sort } : {}) }, checker))
        .json()
        .items.filter((x: { subjectId: string }) => x.subjectId === subject)
        .map((x: { id: string }) => x.id);
    expect(await order()).toEqual([c, b, a]);
    expect(await order('oldest')).toEqual([a, b, c]);
    expect(await order('amount_desc')).toEqual([b, c, a]);
    expect(await order('amount_asc')).toEqual([a, c, b]);
    const bad = await get('adminListApprovals', { sort: 'amount' }, checker);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('Sort must be newest, oldest, amount_desc or amount_asc');
  });

  it('maker and checker operations pass step-up; the customer app is untouched (operators only)', async () => {
    for (const name of [
      'adminAdjustWallet',
      'adminResolveVtuTransaction',
      'adminCorrectSettlement',
      'adminApproveRequest',
      'adminRejectRequest',
    ])
      expect(allOperations.find((o) => o.name === name)?.gates?.stepUp, name).toBe(true);
    const u = await user(h);
    expect((await call(h, 'GET', op('adminListApprovals'), {}, { token: u.token })).statusCode).toBe(403);
  });
});
