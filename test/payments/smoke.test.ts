import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, expectLedgerOk, type Harness } from '../helpers/harness.js';
import { balance, createIntent, sandboxPay, user } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

it('smoke: intent -> pay -> webhook -> job -> credit', async () => {
  const u = await user(h);
  const i = await createIntent(h, u, 1500);
  expect(i.status).toBe('pending');
  const p = await sandboxPay(h, { reference: i.reference, outcome: 'success', webhook: true });
  expect(p.json()).toMatchObject({ ok: true, webhook: { delivered: true } });
  await h.app.services.jobs.drain();
  expect(await balance(h, u)).toBe(1500);
  await expectLedgerOk(h);
});
