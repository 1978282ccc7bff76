import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { MINUTE } from '../../src/kernel/clock.js';
import type { FaultPoint } from '../../src/lib/faults.js';
import { call, fundWallet, signIn, usingPostgres, type Harness, type TestUser } from '../helpers/harness.js';
import { setKycTier } from '../helpers/factories.js';
import { tier2User } from '../payments/helpers.js';
import { balances, signUpWithCode } from '../growth/helpers.js';
import {
  api,
  apiOrDrop,
  chargeSuccess,
  doubleDeliveries,
  exitOf,
  killAll,
  ledgerBreaches,
  multiHarness,
  plainMtn,
  postWebhook,
  sandboxPay,
  SKIP_REASON,
  startServer,
  waitFor,
  walletKobo,
  type ServerProcess,
} from './helpers.js';

/**
 * Crash matrix: a server process started with FAULT_POINT kills itself (SIGKILL, src/lib/faults.ts)
 * at one step of a purchase, a top-up credit or a transfer while the test drives that operation over HTTP.
 * Then a normal server restarts on the same database and its workers (reconciliation, jobs) run; where only
 * time would heal (a dead worker's 5-minute job lease, the 2-minute idempotency claim), this test's own
 * instance plays a restarted server whose clock is past it. Every case ends with every transaction terminal,
 * at most one delivery per purchase, the exact expected balances and the ledger invariants.
 */
const PIN = '1234';

let h: Harness;
beforeAll(async () => {
  if (usingPostgres) h = await multiHarness();
}, 60_000);
afterAll(async () => {
  await killAll();
  await h?.close();
}, 60_000);

const db = () => h.app.services.db;

async function buyer(naira: number): Promise<TestUser> {
  h.clock.set(new Date());
  const u = await signIn(h);
  await h.app.services.pins.set(u.id, 'transaction', PIN);
  await setKycTier(h, u.id, 1);
  await fundWallet(h, u.id, naira);
  return u;
}

/** Starts a server armed at `point`, runs `drive` against it, and checks the process killed itself there. */
async function crashAt(point: FaultPoint, drive: (s: ServerProcess) => Promise<void>) {
  const s = await startServer(h, `server armed at ${point}`, { FAULT_POINT: point });
  await drive(s);
  const end = await exitOf(s);
  expect(end.signal).toBe('SIGKILL');
}

async function withRestarted<T>(fn: (s: ServerProcess) => Promise<T>): Promise<T> {
  const s = await startServer(h, 'restarted server');
  try {
    return await fn(s);
  } finally {
    await s.stop();
  }
}

async function expectLedgerOk() {
  expect(await ledgerBreaches(db())).toEqual([]);
}

async function vtuRow(userId: string) {
  const r = await rows<{ id: string; status: string; request_id: string; reference: string; recipient: string }>(
    db(),
    sql`SELECT id, status, request_id, reference, recipient FROM vtu_transactions WHERE user_id = ${userId}`,
  );
  expect(r).toHaveLength(1);
  return r[0];
}

async function ordersOf(requestId: string) {
  return rows<{ status: string }>(db(), sql`SELECT status FROM sandbox_vtu_orders WHERE request_id = ${requestId}`);
}

async function ledgerCount(reference: string) {
  return (await rows<{ n: number }>(db(), sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference = ${reference}`))[0].n;
}

describe.skipIf(!usingPostgres)(
  `kill -9 at each step of a money operation (${usingPostgres ? 'PostgreSQL' : `skipped: ${SKIP_REASON}`})`,
  { timeout: 120_000 },
  () => {
    describe('purchase (buyAirtime through the sandbox provider)', () => {
      it('killed after the debit commits, before the provider call: reconciliation finds no order and refunds once; a keyed retry is refused', async () => {
        const u = await buyer(1000);
        const phone = plainMtn();
        const input = { network: 'mtn', phone, amount: 300, pin: PIN };
        const headers = { 'idempotency-key': `crash-${u.id}` };
        await crashAt('vtu.purchase.afterDebit', async (s) => {
          const r = await apiOrDrop(s.url, 'POST', '/api/v1/buyAirtime', input, { token: u.token, headers });
          expect(r.status).toBe(0);
        });
        const row = await vtuRow(u.id);
        expect(row.status).toBe('processing');
        expect(await walletKobo(db(), u.id)).toBe(70_000n);
        expect(await ordersOf(row.request_id)).toEqual([]);

        await withRestarted(() =>
          waitFor('reconciliation to settle the purchase', async () => (await vtuRow(u.id)).status !== 'processing'),
        );
        expect((await vtuRow(u.id)).status).toBe('failed');
        expect(await ledgerCount(`vtu_refund_${row.reference}`)).toBe(1);
        // Never sent later under another request id either.
        expect(await rows(db(), sql`SELECT 1 FROM sandbox_vtu_orders WHERE recipient = ${phone}`)).toEqual([]);
        expect(await walletKobo(db(), u.id)).toBe(100_000n);
        // The client retries with its key after the claim's 2 minutes: the debit was committed under it, so it is refused.
        h.clock.set(new Date(Date.now() + 3 * MINUTE));
        const retry = await call(h, 'POST', '/api/v1/buyAirtime', input, { token: u.token, headers });
        expect(retry.statusCode).toBe(409);
        expect(retry.json().error.code).toBe('CONFLICT');
        await vtuRow(u.id);
        await expectLedgerOk();
      });

      it('killed after the provider answered, before the answer is recorded: reconciliation finds the delivery, no refund', async () => {
        const u = await buyer(1000);
        await crashAt('vtu.purchase.afterProvider', async (s) => {
          const r = await apiOrDrop(
            s.url,
            'POST',
            '/api/v1/buyAirtime',
            { network: 'mtn', phone: plainMtn(), amount: 300, pin: PIN },
            { token: u.token },
          );
          expect(r.status).toBe(0);
        });
        const row = await vtuRow(u.id);
        expect(row.status).toBe('processing');
        expect(await ordersOf(row.request_id)).toEqual([{ status: 'delivered' }]);

        await withRestarted(() =>
          waitFor('reconciliation to settle the purchase', async () => (await vtuRow(u.id)).status !== 'processing'),
        );
        expect((await vtuRow(u.id)).status).toBe('success');
        expect(await ordersOf(row.request_id)).toEqual([{ status: 'delivered' }]);
        expect(await ledgerCount(`vtu_refund_${row.reference}`)).toBe(0);
        expect(await walletKobo(db(), u.id)).toBe(70_000n);
        expect(await doubleDeliveries(db())).toEqual([]);
        await expectLedgerOk();
      });
    });

    describe('purchase by an invitee (the settlement writes the growth job)', () => {
      it('killed after the one-statement settlement commits: delivered once; the growth job it wrote pays the referrer once', async () => {
        h.clock.set(new Date());
        const referrer = await signIn(h);
        const code = (await call(h, 'GET', '/_serverFn/getMyReferralStatusBearerGrowth', undefined, { token: referrer.token })).json()
          .code as string;
        const invitee = await signUpWithCode(h, code);
        await h.app.services.pins.set(invitee.id, 'transaction', PIN);
        await setKycTier(h, invitee.id, 1);
        await fundWallet(h, invitee.id, 1000);
        await crashAt('vtu.settle.afterCommit', async (s) => {
          const r = await apiOrDrop(
            s.url,
            'POST',
            '/api/v1/buyAirtime',
            { network: 'mtn', phone: plainMtn(), amount: 500, pin: PIN },
            { token: invitee.token },
          );
          expect(r.status).toBe(0);
        });
        const row = await vtuRow(invitee.id);
        expect(row.status).toBe('success');
        expect(await walletKobo(db(), invitee.id)).toBe(50_000n);
        expect((await balances(h, referrer.id)).referral_locked).toBe(0);
        const job = async () =>
          rows<{ status: string }>(
            db(),
            sql`SELECT status FROM jobs WHERE queue = 'growth.eventRetry' AND payload->'payload'->>'transactionId' = ${row.id}`,
          );
        // The commit wakes the server's job lanes: in the moment before the kill one may have claimed the job, which then
        // stays running until its lease (5 minutes) ends and is taken over as a crashed worker's.
        const written = await job();
        expect(written).toHaveLength(1);
        expect(['queued', 'running']).toContain(written[0].status);
        if (written[0].status === 'running') h.clock.advance(6 * 60_000);

        // A restarted server (this instance) works the growth job the settling statement wrote.
        await h.app.services.jobs.drain();
        expect(await job()).toEqual([{ status: 'done' }]);
        expect((await balances(h, referrer.id)).referral_locked).toBe(500);
        // Run again (a worker dying before completing it): still one bonus.
        await db().execute(
          sql`UPDATE jobs SET status = 'queued', run_at = ${h.clock.now()} WHERE queue = 'growth.eventRetry' AND payload->'payload'->>'transactionId' = ${row.id}`,
        );
        await h.app.services.jobs.drain();
        expect((await balances(h, referrer.id)).referral_locked).toBe(500);
        expect(await ordersOf(row.request_id)).toEqual([{ status: 'delivered' }]);
        expect(await doubleDeliveries(db())).toEqual([]);
        await expectLedgerOk();
      });
    });

    describe('top-up credit (intent, sandbox checkout, signed webhook, credit job)', () => {
      async function intentFor(s: ServerProcess, u: TestUser) {
        const r = await api(s.url, 'POST', '/_serverFn/createTopupIntentBearerWallet', { amount: 2500 }, { token: u.token });
        expect(r.status).toBe(200);
        return r.body.reference as string;
      }
      const credits = async (reference: string) =>
        (
          await rows<{ n: number }>(
            db(),
            sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference LIKE ${'payin:%:' + reference}`,
          )
        )[0].n;
      const eventStatus = async (reference: string) =>
        (await rows<{ status: string }>(db(), sql`SELECT status FROM processor_events WHERE reference = ${reference}`)).map(
          (e) => e.status,
        );

      it('killed after the webhook event is stored, before its job runs: the restarted worker credits once; a redelivery changes nothing', async () => {
        h.clock.set(new Date());
        const u = await signIn(h);
        let reference = '';
        await crashAt('payments.webhook.afterStore', async (s) => {
          reference = await intentFor(s, u);
          // The simulator marks the charge paid, then posts charge.success to this same instance, which dies.
          await sandboxPay(s.url, reference);
        });
        expect(await eventStatus(reference)).toEqual(['received']);
        expect(await walletKobo(db(), u.id)).toBe(0n);

        await withRestarted(async (s) => {
          await waitFor('the credit job', async () => (await eventStatus(reference))[0] === 'credited');
          // The processor retries its webhook (it never saw a 200): stored as a repeat, credited never again.
          expect(await postWebhook(s.url, chargeSuccess(reference, 250_000))).toBe(200);
          await waitFor('the redelivery to be processed', async () => (await eventStatus(reference)).every((x) => x !== 'received'));
        });
        expect(await credits(reference)).toBe(1);
        expect(await walletKobo(db(), u.id)).toBe(250_000n);
        await expectLedgerOk();
      });

      it('killed inside the credit job before commit: nothing is credited until the dead worker lease ends, then exactly once', async () => {
        h.clock.set(new Date());
        const u = await signIn(h);
        let reference = '';
        await crashAt('payments.credit.beforeCommit', async (s) => {
          reference = await intentFor(s, u);
          await sandboxPay(s.url, reference);
        });
        const job = await rows<{ status: string }>(
          db(),
          sql`SELECT j.status FROM jobs j JOIN processor_events e ON j.payload->>'eventId' = e.id::text WHERE e.reference = ${reference}`,
        );
        expect(job).toEqual([{ status: 'running' }]);
        expect(await credits(reference)).toBe(0);
        expect(await walletKobo(db(), u.id)).toBe(0n);

        await withRestarted(async (s) => {
          // The job is still leased to the dead worker (5 minutes). This instance's clock is past the lease: it claims
          // the job again and credits.
          h.clock.set(new Date(Date.now() + 6 * MINUTE));
          expect(await h.app.services.jobs.drain()).toBeGreaterThan(0);
          expect(await eventStatus(reference)).toEqual(['credited']);
          // The processor's retry reaches the restarted server afterwards: a second event, answered "already credited".
          expect(await postWebhook(s.url, chargeSuccess(reference, 250_000, { attempt: 2 }))).toBe(200);
          await waitFor('the redelivery to be processed', async () => (await eventStatus(reference)).every((x) => x !== 'received'));
        });
        expect((await eventStatus(reference)).sort()).toEqual(['credited', 'duplicate']);
        expect(await credits(reference)).toBe(1);
        expect(await walletKobo(db(), u.id)).toBe(250_000n);
        await expectLedgerOk();
      });
    });

    describe('transfer (transferWalletFn with an Idempotency-Key)', () => {
      async function pair() {
        h.clock.set(new Date());
        const tag = Math.random().toString(36).slice(2, 8);
        const s = await tier2User(h, { username: `cs${tag}`, fullName: 'Crash Sender', pin: PIN });
        const r = await tier2User(h, { username: `cr${tag}`, fullName: 'Crash Receiver', pin: PIN });
        await fundWallet(h, s.id, 1000);
        return { s, r, rName: `cr${tag}` };
      }
      const transfers = async (from: string) =>
        (
          await rows<{ n: number }>(
            db(),
            sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE type = 'transfer_out' AND metadata->>'from' = ${from}`,
          )
        )[0].n;

      it('killed before commit: nothing moved; the same request after the idempotency claim expires moves it once', async () => {
        const { s, r, rName } = await pair();
        const input = { username: rName, amount: 300, pin: PIN };
        const headers = { 'idempotency-key': `crash-${s.id}` };
        await crashAt('wallet.transfer.beforeCommit', async (srv) => {
          expect(
            (await apiOrDrop(srv.url, 'POST', '/_serverFn/transferWalletFnBearerWallet', input, { token: s.token, headers })).status,
          ).toBe(0);
        });
        expect(await transfers(s.id)).toBe(0);
        expect(await walletKobo(db(), s.id)).toBe(100_000n);
        expect(await walletKobo(db(), r.id)).toBe(0n);

        await withRestarted(async (srv) => {
          // The dead request's claim holds the key for two minutes: a retry is told to wait, it does not run twice.
          const retry = await api(srv.url, 'POST', '/_serverFn/transferWalletFnBearerWallet', input, { token: s.token, headers });
          expect(retry.status).toBe(409);
        });
        h.clock.set(new Date(Date.now() + 3 * MINUTE));
        const later = await call(h, 'POST', '/_serverFn/transferWalletFnBearerWallet', input, { token: s.token, headers });
        expect(later.statusCode).toBe(200);
        expect(await transfers(s.id)).toBe(1);
        expect(await walletKobo(db(), s.id)).toBe(70_000n);
        expect(await walletKobo(db(), r.id)).toBe(30_000n);
        await expectLedgerOk();
      });

      it('killed after commit, before the response: moved exactly once; a retry with the key is refused, never run again', async () => {
        const { s, r, rName } = await pair();
        const input = { username: rName, amount: 300, pin: PIN };
        const headers = { 'idempotency-key': `crash-${s.id}` };
        await crashAt('wallet.transfer.afterCommit', async (srv) => {
          expect(
            (await apiOrDrop(srv.url, 'POST', '/_serverFn/transferWalletFnBearerWallet', input, { token: s.token, headers })).status,
          ).toBe(0);
        });
        expect(await transfers(s.id)).toBe(1);
        await withRestarted(async (srv) => {
          const retry = await api(srv.url, 'POST', '/_serverFn/transferWalletFnBearerWallet', input, { token: s.token, headers });
          expect(retry.status).toBe(409);
          expect(retry.body.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
          const state = await api(srv.url, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: s.token });
          expect(state.body.balance).toBe(700);
        });
        // After the claim's 2 minutes the key is not taken over: the transfer committed under it, so a retry is refused.
        h.clock.set(new Date(Date.now() + 3 * MINUTE));
        const later = await call(h, 'POST', '/_serverFn/transferWalletFnBearerWallet', input, { token: s.token, headers });
        expect(later.statusCode).toBe(409);
        expect(later.json().error.code).toBe('CONFLICT');
        expect(await transfers(s.id)).toBe(1);
        expect(await walletKobo(db(), s.id)).toBe(70_000n);
        expect(await walletKobo(db(), r.id)).toBe(30_000n);
        await expectLedgerOk();
      });
    });
  },
);
