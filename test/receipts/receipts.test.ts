import { createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { call, createHarness, expectLedgerOk, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { setKycTier } from '../helpers/factories.js';

const P = '/_serverFn/';
let h: Harness;

/** Our own canonical form (sorted keys, no whitespace), written independently of the service's. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

async function publishedKey() {
  const res = await h.app.inject({ method: 'GET', url: '/.well-known/receipt-key' });
  expect(res.statusCode).toBe(200);
  return res.json() as { keyId: string; publicKeyPem: string; alg: string };
}

const sign = (u: TestUser, reference: string) => call(h, 'POST', `${P}signReceiptBearerReceipts`, { reference }, { token: u.token });
const lookup = (needle: string) => call(h, 'GET', `${P}verifyReceiptPublicReceipts`, { needle });
const lastLedgerRef = async (u: TestUser) =>
  (await call(h, 'GET', `${P}getWalletStateBearerWallet`, undefined, { token: u.token })).json().log[0].reference as string;

async function airtimeBuyer(naira = 5000) {
  const u = await signIn(h);
  await fundWallet(h, u.id, naira);
  await setKycTier(h, u.id, 1);
  return u;
}

beforeAll(async () => {
  // A generous adapter timeout: a loaded test machine must not turn a delivered purchase into a pending one.
  h = await createHarness({ env: { VTU_PROVIDER_TIMEOUT_MS: '5000', VTU_SANDBOX_SLOW_MS: '60' } });
});

/** A delivered airtime purchase through the VTU purchase path (reconciled if the simulator answered slowly). */
async function deliveredAirtime(u: TestUser, phone: string, amount: number) {
  const tx = await h.app.services.vtu.purchase({ id: u.id, kycTier: 1 }, 'airtime', { network: 'mtn', phone, amount });
  if (tx.status === 'success') return tx;
  h.clock.advance(60_000);
  await h.app.services.jobs.tickCrons();
  await h.app.services.jobs.drain();
  return h.app.services.vtu.getMine(u.id, tx.id);
}
afterAll(async () => h?.close());

describe('receipts', () => {
  it('signs a ledger transaction; the signature verifies with the published key (independent Ed25519 check)', async () => {
    const u = await signIn(h);
    await fundWallet(h, u.id, 1500.5);
    const ref = await lastLedgerRef(u);
    const res = await sign(u, ref);
    expect(res.statusCode).toBe(200);
    const { needle, receipt, signature } = res.json();
    expect(needle).toMatch(/^[0-9A-Z]{12}$/);
    expect(receipt).toMatchObject({ needle, reference: ref, direction: 'credit', amount: '1500.50', currency: 'NGN', status: 'completed' });

    const key = await publishedKey();
    expect(key.alg).toBe('Ed25519');
    expect(receipt.keyId).toBe(key.keyId);
    const pub = createPublicKey(key.publicKeyPem);
    expect(verify(null, Buffer.from(canonical(receipt)), pub, Buffer.from(signature, 'base64url'))).toBe(true);
    const forged = { ...receipt, amount: '9999.00' };
    expect(verify(null, Buffer.from(canonical(forged)), pub, Buffer.from(signature, 'base64url'))).toBe(false);

    // Signing again gives the same receipt.
    expect((await sign(u, ref)).json().needle).toBe(needle);
    // Public lookup needs no token; lower-case needles are accepted.
    const v = await lookup(needle.toLowerCase());
    expect(v.statusCode).toBe(200);
    expect(v.json()).toMatchObject({ ok: true, valid: true, receipt: { needle, amount: '1500.50' } });
  });

  it('covers VTU purchases with masked recipients, refuses unfinished ones, and detects tampering', async () => {
    const u = await airtimeBuyer();
    const tx = await deliveredAirtime(u, '08031234567', 500);
    expect(tx.status).toBe('success');
    const res = await sign(u, tx.id);
    expect(res.statusCode).toBe(200);
    const { needle, receipt, signature } = res.json();
    expect(receipt).toMatchObject({
      reference: tx.reference,
      service: 'airtime',
      recipient: '08031234567',
      network: 'mtn',
      direction: 'debit',
      amount: '500.00',
      status: 'success',
    });
    const key = await publishedKey();
    expect(verify(null, Buffer.from(canonical(receipt)), createPublicKey(key.publicKeyPem), Buffer.from(signature, 'base64url'))).toBe(
      true,
    );

    const v = (await lookup(needle)).json();
    expect(v.valid).toBe(true);
    expect(v.receipt.recipient).toBe('0803****567');
    expect(JSON.stringify(v.receipt)).not.toContain('08031234567');

    // Same receipt by its ledger reference.
    expect((await sign(u, tx.reference)).json().needle).toBe(needle);

    // A pending purchase has no receipt yet.
    const pending = await h.app.services.vtu.purchase({ id: u.id, kycTier: 1 }, 'airtime', {
      network: 'mtn',
      phone: '08032222222',
      amount: 100,
    });
    expect(pending.status).toBe('processing');
    const early = await sign(u, pending.id);
    expect(early.statusCode).toBe(409);

    // A receipt altered in storage no longer verifies.
    await h.app.services.db.execute(sql`UPDATE receipts SET payload = jsonb_set(payload, '{amount}', '"50.00"') WHERE needle = ${needle}`);
    expect((await lookup(needle)).json().valid).toBe(false);
    await expectLedgerOk(h);
  });

  it("another user's transactions are 404; unknown needles 404; malformed needles 400", async () => {
    const u = await signIn(h);
    const other = await signIn(h);
    await fundWallet(h, u.id, 100);
    const ref = await lastLedgerRef(u);
    expect((await sign(other, ref)).statusCode).toBe(404);
    expect((await sign(other, 'no_such_reference')).statusCode).toBe(404);
    expect((await lookup('0000000000ZZ')).statusCode).toBe(404);
    expect((await lookup('short')).statusCode).toBe(400);
    expect((await call(h, 'POST', `${P}signReceiptBearerReceipts`, { reference: ref })).statusCode).toBe(401);
  });
});
