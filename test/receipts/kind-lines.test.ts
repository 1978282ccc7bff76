import { createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { canonicalJson } from '../../src/lib/canonical-json.js';
import { call, createHarness, expectLedgerOk, fundWallet, signIn, type Harness } from '../helpers/harness.js';
import { setKycTier } from '../helpers/factories.js';

// A service kind's own receipt lines (kinds/kind.ts receiptLines) are kept with the delivery as
// details.receiptLines when the purchase settles; the receipt carries them, signed, and masks the private ones.
const P = '/_serverFn/';
let h: Harness;

beforeAll(async () => {
  h = await createHarness({ env: { VTU_PROVIDER_TIMEOUT_MS: '5000', VTU_SANDBOX_SLOW_MS: '60' } });
});
afterAll(async () => h?.close());

it("a delivered purchase's kind lines are on its signed receipt; masked lines are masked on the public page", async () => {
  const u = await signIn(h);
  await fundWallet(h, u.id, 5000);
  await setKycTier(h, u.id, 1);
  let tx = await h.app.services.vtu.purchase({ id: u.id, kycTier: 1 }, 'airtime', { network: 'mtn', phone: '08031234567', amount: 500 });
  if (tx.status !== 'success') {
    h.clock.advance(60_000);
    await h.app.services.jobs.tickCrons();
    await h.app.services.jobs.drain();
    tx = await h.app.services.vtu.getMine(u.id, tx.id);
  }
  expect(tx.status).toBe('success');
  // What a kind's receiptLines would have stored at settlement (airtime declares none).
  const lines = [
    { label: 'ICCID', value: '8923401234567890123', mask: true },
    { label: 'Plan', value: 'Europe 5 GB / 30 days' },
  ];
  await h.app.services.db.execute(
    sql`UPDATE vtu_transactions SET details = details || ${JSON.stringify({ receiptLines: lines })}::jsonb WHERE id = ${tx.id}`,
  );

  const res = await call(h, 'POST', `${P}signReceiptBearerReceipts`, { reference: tx.id }, { token: u.token });
  expect(res.statusCode, res.body).toBe(200);
  const { needle, receipt, signature } = res.json();
  expect(receipt.lines).toEqual(lines);
  const key = (await h.app.inject({ method: 'GET', url: '/.well-known/receipt-key' })).json();
  expect(verify(null, Buffer.from(canonicalJson(receipt)), createPublicKey(key.publicKeyPem), Buffer.from(signature, 'base64url'))).toBe(
    true,
  );

  const v = (await call(h, 'GET', `${P}verifyReceiptPublicReceipts`, { needle })).json();
  expect(v.valid).toBe(true);
  expect(v.receipt.lines).toEqual([{ label: 'ICCID', value: '89********23', mask: true }, lines[1]]);
  expect(JSON.stringify(v.receipt)).not.toContain('8923401234567890123');
  await expectLedgerOk(h);
});
