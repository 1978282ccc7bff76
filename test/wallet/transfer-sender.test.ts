import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { displayNameOf } from '../../src/modules/wallet/recipient.js';
import { call, createHarness, expectLedgerOk, usingPostgres, type Harness } from '../helpers/harness.js';
import { PIN, tier2User } from '../helpers/factories.js';

/**
 * Issue 43: "You received ₦100.00 from a user." named nobody. The recipient's notice and the transfer's line in the
 * history name the sender as people do ("Ada O."), else by @username.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

it('display names: first name and the last name initial, else the one name, else @username', () => {
  expect(displayNameOf({ full_name: 'Ada Grace Obi', username: 'ada' })).toBe('Ada O');
  expect(displayNameOf({ full_name: '  Tunde  ', username: 'tunde' })).toBe('Tunde');
  expect(displayNameOf({ full_name: null, username: 'kemi' })).toBe('@kemi');
  expect(displayNameOf({ full_name: null, username: null })).toBeNull();
});

it(`the recipient's notice and the history name the sender (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, async () => {
  const n = Date.now() % 1e8;
  const ada = await tier2User(h, { fullName: 'Ada Grace Obi', pin: PIN, naira: 5000, username: `ada_${n}` });
  const bola = await tier2User(h, { fullName: 'Bola Ade', username: `bola_${n}` });
  const r = await call(
    h,
    'POST',
    '/_serverFn/transferWalletFnBearerWallet',
    { username: `bola_${n}`, amount: 100, pin: PIN },
    { token: ada.token },
  );
  expect(r.statusCode, r.body).toBe(200);
  const [notice] = await rows<{ body: string; data: { from: string } }>(
    h.app.services.db,
    sql`SELECT body, data FROM notifications WHERE user_id = ${bola.id} AND kind = 'transfer_received'`,
  );
  expect(notice.body).toBe('You received ₦100.00 from Ada O.');
  expect(notice.data.from).toBe('Ada O');
  const history = await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', {}, { token: bola.token });
  expect(JSON.stringify(history.json().log)).toContain(`Transfer from Ada O to @bola_${n}`);
  await expectLedgerOk(h);
});
