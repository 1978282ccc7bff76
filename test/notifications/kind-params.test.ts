import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, usingPostgres, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, PIN, tier2User } from '../helpers/factories.js';
import { roundTripsOf } from '../helpers/statements.js';
import { VTU_ENV } from '../vtu/helpers.js';

// Issue 29: server texts as a kind and parameters, so the app words them in the reader's language. The English
// title, body and description stay for API clients.
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
}, 180_000);
afterAll(async () => h?.close());

const inbox = async (u: TestUser) => {
  await h.app.services.jobs.drain();
  return (await call(h, 'GET', '/_serverFn/listNotificationsBearerNotifications', undefined, { token: u.token })).json().items;
};
const log = async (u: TestUser) =>
  (await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token })).json().log;
const buyAirtime = (u: TestUser, phone: string) =>
  call(h, 'POST', '/_serverFn/buyAirtimeBearerVTU', { network: 'mtn', phone, amount: 150, pin: PIN }, { token: u.token });

describe('kind and params beside the English text', () => {
  it('a delivered purchase: inbox purchase_delivered and activity purchase, each with service, amount/recipient', async () => {
    const u = await buyer(h, 5_000);
    const tx = (await buyAirtime(u, '08031230001')).json().transaction;
    const [note] = await inbox(u);
    expect(note).toMatchObject({
      kind: 'purchase_delivered',
      params: { service: 'airtime', amount: 150, recipient: '08031230001', reference: tx.reference, transactionId: tx.id },
    });
    expect(note.title).toBe('Airtime delivered');
    const [line] = await log(u);
    expect(line).toMatchObject({ type: 'vtu_purchase', kind: 'purchase', params: { service: 'airtime', recipient: '08031230001' } });
    expect(line.description).toBe('Airtime for 08031230001');
  });

  it('a refunded purchase: purchase_refunded in the inbox, purchase_refund and purchase in the activity', async () => {
    const u = await buyer(h, 5_000);
    expect((await buyAirtime(u, '08031231111')).json().transaction.status).toBe('failed');
    const [note] = await inbox(u);
    expect(note).toMatchObject({ kind: 'purchase_refunded', params: { service: 'airtime', amount: 150, recipient: '08031231111' } });
    const lines = await log(u);
    expect(lines.slice(0, 2).map((l: any) => [l.kind, l.params])).toEqual([
      ['purchase_refund', { service: 'airtime', recipient: '08031231111' }],
      ['purchase', { service: 'airtime', recipient: '08031231111' }],
    ]);
    // A line without facts of its own still has its kind and an empty params.
    expect(lines.at(-1)).toMatchObject({ kind: 'adjustment', params: {} });
  });

  it.skipIf(!usingPostgres)("the wallet state with its purchases' facts and transfer usernames is one round trip", async () => {
    const u = await buyer(h, 5_000);
    await buyAirtime(u, '08031230002');
    let state: Awaited<ReturnType<typeof h.app.services.wallet.state>> | undefined;
    const trips = await roundTripsOf(async () => (state = await h.app.services.wallet.state(u.id)));
    expect(trips).toHaveLength(1);
    expect(state!.log[0]).toMatchObject({ kind: 'purchase', params: { service: 'airtime', recipient: '08031230002' } });
  });

  it("a transfer: each side names the other (the recipient is told the sender's name, issue 43)", async () => {
    const stamp = Date.now().toString(36).slice(-6);
    const from = await tier2User(h, { username: `kp_s${stamp}`, fullName: 'Ngozi Okafor', pin: PIN, naira: 2_000 });
    const to = await tier2User(h, { username: `kp_r${stamp}`, fullName: 'Tunde Bello' });
    const sent = await call(
      h,
      'POST',
      '/_serverFn/transferWalletFnBearerWallet',
      { username: `kp_r${stamp}`, amount: 300, pin: PIN },
      { token: from.token },
    );
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await log(from))[0]).toMatchObject({ kind: 'transfer_sent', params: { username: `kp_r${stamp}` } });
    expect((await log(to))[0]).toMatchObject({ kind: 'transfer_received', params: { username: `kp_s${stamp}` } });
    expect((await inbox(to))[0]).toMatchObject({ kind: 'transfer_received', params: { amount: 300, from: 'Ngozi O' } });
  });
});
