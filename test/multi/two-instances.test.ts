import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { fundWallet, signIn, usingPostgres, type Harness, type TestUser } from '../helpers/harness.js';
import { setKycTier } from '../helpers/factories.js';
import { tier2User } from '../payments/helpers.js';
import {
  api,
  chargeSuccess,
  doubleDeliveries,
  killAll,
  ledgerBreaches,
  multiHarness,
  plainMtn,
  postWebhook,
  SKIP_REASON,
  startServer,
  waitFor,
  walletKobo,
  type ServerProcess,
} from './helpers.js';

/**
 * Two instances, one database: two real server processes on the same PostgreSQL database and the
 * same Redis, each with its job worker running, driven over real loopback HTTP. Every case ends with the
 * ledger invariants of `npm run ledger:verify`.
 */
const PIN = '1234';
/** Low enough that the shared per-account limit is reachable in a test; money operations get half. */
const RATE_LIMIT = 60;

let h: Harness;
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  if (!usingPostgres) return;
  h = await multiHarness();
  [a, b] = await Promise.all([
    startServer(h, 'A', { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) }),
    startServer(h, 'B', { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) }),
  ]);
}, 120_000);

afterAll(async () => {
  await killAll();
  await h?.close();
}, 60_000);

async function expectLedgerOk() {
  expect(await ledgerBreaches(h.app.services.db)).toEqual([]);
}

async function buyer(naira: number): Promise<TestUser> {
  const u = await signIn(h);
  await h.app.services.pins.set(u.id, 'transaction', PIN);
  await setKycTier(h, u.id, 1);
  if (naira) await fundWallet(h, u.id, naira);
  return u;
}

describe.skipIf(!usingPostgres)(
  `two server processes on one database (${usingPostgres ? 'PostgreSQL' : `skipped: ${SKIP_REASON}`})`,
  { timeout: 120_000 },
  () => {
    it('the same signed webhook sent 20 times across both instances credits exactly once', async () => {
      const u = await signIn(h);
      const intent = await api(a.url, 'POST', '/_serverFn/createTopupIntentBearerWallet', { amount: 2500 }, { token: u.token });
      expect(intent.status).toBe(200);
      const reference = intent.body.reference as string;
      const body = chargeSuccess(reference, 250_000);
      // A differently encoded copy of the same charge is a second event, a second job: the ledger reference decides.
      const copy = chargeSuccess(reference, 250_000, { redelivery: true });
      const statuses = await Promise.all([
        ...Array.from({ length: 20 }, (_, i) => postWebhook(i % 2 ? b.url : a.url, body)),
        postWebhook(b.url, copy),
        postWebhook(a.url, copy),
      ]);
      expect(statuses.every((s) => s === 200)).toBe(true);

      const events = await waitFor('both stored events to be processed by the workers', async () => {
        const r = await rows<{ status: string; deliveries: number }>(
          h.app.services.db,
          sql`SELECT status, deliveries FROM processor_events WHERE reference = ${reference} ORDER BY status`,
        );
        return r.length === 2 && r.every((e) => e.status !== 'received') && r;
      });
      expect(events.map((e) => e.status).sort()).toEqual(['credited', 'duplicate']);
      expect(events.reduce((s, e) => s + e.deliveries, 0)).toBe(22);
      const credits = await rows<{ n: number }>(
        h.app.services.db,
        sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference LIKE ${'payin:%:' + reference}`,
      );
      expect(credits[0].n).toBe(1);
      expect(await walletKobo(h.app.services.db, u.id)).toBe(250_000n);
      const seen = await api(b.url, 'GET', '/_serverFn/getTopupIntentBearerWallet', { reference }, { token: u.token });
      expect(seen.body.status).toBe('success');
      await expectLedgerOk();
    });

    it('concurrent purchases on one wallet from both instances never overdraw and leave the exact balance', async () => {
      const u = await buyer(1000);
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          api(
            i % 2 ? b.url : a.url,
            'POST',
            '/api/v1/buyAirtime',
            { network: 'mtn', phone: plainMtn(), amount: 100, pin: PIN },
            { token: u.token },
          ),
        ),
      );
      const ok = answers.filter((r) => r.status === 200);
      const refused = answers.filter((r) => r.status !== 200);
      expect(ok.length).toBe(10);
      expect(refused.every((r) => r.body?.error?.code === 'INSUFFICIENT_FUNDS')).toBe(true);
      // Both instances served purchases.
      expect(new Set(answers.map((_, i) => i % 2)).size).toBe(2);
      expect(ok.map((r) => r.body.transaction.status)).toEqual(Array(10).fill('success'));
      expect(await walletKobo(h.app.services.db, u.id)).toBe(0n);
      const txs = await rows<{ status: string; n: number }>(
        h.app.services.db,
        sql`SELECT status, count(*)::int AS n FROM vtu_transactions WHERE user_id = ${u.id} GROUP BY status`,
      );
      expect(txs).toEqual([{ status: 'success', n: 10 }]);
      const delivered = await rows<{ n: number }>(
        h.app.services.db,
        sql`SELECT count(*)::int AS n FROM sandbox_vtu_orders o JOIN vtu_transactions t ON t.request_id = o.request_id WHERE t.user_id = ${u.id} AND o.status = 'delivered'`,
      );
      expect(delivered[0].n).toBe(10);
      expect(await doubleDeliveries(h.app.services.db)).toEqual([]);
      await expectLedgerOk();
    });

    it('transfers in both directions from both instances conserve money and never overdraw', async () => {
      const sName = `s${Date.now().toString(36)}`;
      const rName = `r${Date.now().toString(36)}`;
      const s = await tier2User(h, { username: sName, fullName: 'Sola Sender', pin: PIN });
      const r = await tier2User(h, { username: rName, fullName: 'Remi Receiver', pin: PIN });
      await fundWallet(h, s.id, 1000);
      await fundWallet(h, r.id, 200);
      const send = (from: TestUser, to: string, i: number) =>
        api(
          i % 2 ? b.url : a.url,
          'POST',
          '/_serverFn/transferWalletFnBearerWallet',
          { username: to, amount: 100, pin: PIN },
          { token: from.token },
        );
      const [forward, back] = await Promise.all([
        Promise.all(Array.from({ length: 14 }, (_, i) => send(s, rName, i))),
        Promise.all(Array.from({ length: 6 }, (_, i) => send(r, sName, i))),
      ]);
      for (const x of [...forward, ...back]) {
        if (x.status !== 200) expect(x.body?.error?.code).toBe('INSUFFICIENT_FUNDS');
      }
      const okF = forward.filter((x) => x.status === 200).length;
      const okB = back.filter((x) => x.status === 200).length;
      // 1000 + 100 per transfer back covers at least 10 forward transfers.
      expect(okF).toBeGreaterThanOrEqual(10);
      expect(await walletKobo(h.app.services.db, s.id)).toBe(100_000n - BigInt(okF) * 10_000n + BigInt(okB) * 10_000n);
      expect(await walletKobo(h.app.services.db, r.id)).toBe(20_000n + BigInt(okF) * 10_000n - BigInt(okB) * 10_000n);
      const posted = await rows<{ n: number }>(
        h.app.services.db,
        sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE type = 'transfer_out' AND metadata->>'from' IN (${s.id}, ${r.id})`,
      );
      expect(posted[0].n).toBe(okF + okB);
      await expectLedgerOk();
    });

    it('a session signed out on one instance is refused by the other, whose session cache hears it from the trigger', async () => {
      const u = await signIn(h);
      const wallet = (s: ServerProcess) => api(s.url, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token });
      // Both instances have the session cached now.
      expect([(await wallet(a)).status, (await wallet(b)).status]).toEqual([200, 200]);
      expect((await api(a.url, 'POST', '/_serverFn/signOutBearerAuth', {}, { token: u.token })).status).toBe(200);
      expect((await wallet(a)).status).toBe(401);
      // B learns of it over LISTEN/NOTIFY, milliseconds after the commit.
      await waitFor('instance B to refuse the signed-out session', async () => (await wallet(b)).status === 401, 5000);
      expect((await wallet(b)).status).toBe(401);
    });

    it.skipIf(!process.env.TEST_REDIS_URL)(
      `a per-account rate limit is counted across both instances through Redis${process.env.TEST_REDIS_URL ? '' : ' (skipped: needs TEST_REDIS_URL)'}`,
      async () => {
        const u = await signIn(h);
        const answers = await Promise.all(
          Array.from({ length: RATE_LIMIT + 20 }, (_, i) =>
            api(i % 2 ? b.url : a.url, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token }),
          ),
        );
        const ok = answers.filter((r) => r.status === 200).length;
        const limited = answers.filter((r) => r.status === 429);
        // Counted per instance, each would allow RATE_LIMIT and all 80 would pass.
        expect(ok).toBe(RATE_LIMIT);
        expect(limited.length).toBe(20);
        expect(limited.every((r) => r.body?.error?.code === 'RATE_LIMITED')).toBe(true);
      },
    );
  },
);
