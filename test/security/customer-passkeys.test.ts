import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, emailGrant, expectLedgerOk, type Harness, type TestUser } from '../helpers/harness.js';
import { approveTier2, buyer, PIN, setUserFacts, walletBalance } from '../helpers/factories.js';
import { enrollTotp } from './rfc6238.js';
import { createSoftAuthenticator, type SoftAuthenticator } from '../helpers/webauthn.js';

// Issue 43: a customer's passkey (here a software authenticator, test/helpers/webauthn.ts) signs in without an address
// and, where the customer chose it, confirms a payment instead of the transaction PIN, bound to that one request.
let h: Harness;
let ada: TestUser;
let bola: TestUser;
let adaKey: SoftAuthenticator;
let bolaKey: SoftAuthenticator;
let adaPasskeyId: string;

const fn = (op: string) => `/_serverFn/${op}`;
const airtime = { network: 'mtn', phone: '08031234567', amount: 100 };
const header = (assertion: unknown) => ({ 'x-passkey-assertion': Buffer.from(JSON.stringify(assertion)).toString('base64url') });

async function register(u: TestUser, key: SoftAuthenticator, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const opts = await call(h, 'POST', fn('passkeyRegisterOptionsBearerAuth'), {}, { token: u.token, headers });
  expect(opts.statusCode, opts.body).toBe(200);
  const options = opts.json().options;
  expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
  return call(h, 'POST', fn('registerPasskeyBearerAuth'), { response: key.register(options), ...extra }, { token: u.token, headers });
}

async function paymentOptions(u: TestUser, input: Record<string, unknown> = airtime, operation = 'buyAirtime') {
  const res = await call(h, 'POST', fn('passkeyPaymentOptionsBearerAuth'), { operation, input }, { token: u.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().options as { challenge: string; allowCredentials: { id: string }[]; userVerification: string };
}

const buy = (u: TestUser, headers: Record<string, string>, input: Record<string, unknown> = airtime) =>
  call(h, 'POST', fn('buyAirtimeBearerVTU'), input, { token: u.token, headers });

async function signInOptions() {
  const res = await call(h, 'POST', fn('passkeySignInOptionsPublicAuth'), {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json().options as { challenge: string; allowCredentials?: unknown[] };
}

beforeAll(async () => {
  h = await createHarness();
  [ada, bola] = await Promise.all([buyer(h), buyer(h)]);
  const rp = { origin: h.config.webauthn.origin, rpId: h.config.webauthn.rpId };
  adaKey = createSoftAuthenticator(rp);
  bolaKey = createSoftAuthenticator(rp);
});
afterAll(async () => h.close());

describe('registering', () => {
  it('registers a first passkey right after an e-mail-code sign-in; the PIN turns passkey payments on', async () => {
    const wrongPin = await register(ada, adaKey, { pin: '9999' });
    expect(wrongPin.json().error.code).toBe('INVALID_PIN');
    const res = await register(ada, adaKey, { pin: PIN, name: 'Ada’s phone' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Ada’s phone', payments: true });
    adaPasskeyId = res.json().id;
    const list = await call(h, 'GET', fn('listPasskeysBearerAuth'), {}, { token: ada.token });
    expect(list.json()).toMatchObject({ payments: true, items: [{ id: adaPasskeyId, name: 'Ada’s phone', lastUsedAt: null }] });
  });

  it('asks for a step-up grant for a second passkey', async () => {
    const second = createSoftAuthenticator({ origin: h.config.webauthn.origin, rpId: h.config.webauthn.rpId });
    const refused = await call(h, 'POST', fn('passkeyRegisterOptionsBearerAuth'), {}, { token: ada.token });
    expect(refused.json().error.code).toBe('STEP_UP_REQUIRED');
    const grant = await emailGrant(h, ada);
    const ok = await register(ada, second, {}, grant);
    expect(ok.statusCode, ok.body).toBe(200);
    const list = await call(h, 'GET', fn('listPasskeysBearerAuth'), {}, { token: ada.token });
    expect(list.json().items).toHaveLength(2);
    const removed = await call(h, 'POST', fn('deletePasskeyBearerAuth'), { id: ok.json().id }, { token: ada.token });
    expect(removed.json()).toMatchObject({ deleted: true });
  });

  it('registers without payments when no PIN is given; turning them on needs the PIN', async () => {
    const res = await register(bola, bolaKey);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().payments).toBe(false);
    const noPin = await call(h, 'POST', fn('setPasskeyPaymentsBearerAuth'), { on: true }, { token: bola.token });
    expect(noPin.statusCode).toBe(400);
    const on = await call(h, 'POST', fn('setPasskeyPaymentsBearerAuth'), { on: true, pin: PIN }, { token: bola.token });
    expect(on.json()).toMatchObject({ payments: true });
  });
});

describe('signing in', () => {
  it('signs in with a passkey, no address asked, into an active session', async () => {
    const options = await signInOptions();
    expect(options.allowCredentials ?? []).toEqual([]);
    const res = await call(h, 'POST', fn('signInWithPasskeyPublicAuth'), { assertion: adaKey.assert(options) });
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json().session;
    expect(session.user.id).toBe(ada.id);
    expect(session.secondFactorRequired).toBeUndefined();
    const wallet = await call(h, 'GET', fn('getWalletStateBearerWallet'), {}, { token: session.accessToken });
    expect(wallet.statusCode, wallet.body).toBe(200);
  });

  it('refuses a replayed sign-in assertion and an unknown passkey', async () => {
    const options = await signInOptions();
    const assertion = adaKey.assert(options);
    expect((await call(h, 'POST', fn('signInWithPasskeyPublicAuth'), { assertion })).statusCode).toBe(200);
    const again = await call(h, 'POST', fn('signInWithPasskeyPublicAuth'), { assertion });
    expect(again.json().error.code).toBe('PASSKEY_INVALID');
    const stranger = createSoftAuthenticator({ origin: h.config.webauthn.origin, rpId: h.config.webauthn.rpId });
    const unknown = await call(h, 'POST', fn('signInWithPasskeyPublicAuth'), { assertion: stranger.assert(await signInOptions()) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('PASSKEY_INVALID');
  });

  it('with two-factor on, a passkey is the second factor too: the session opens active on a new device', async () => {
    await enrollTotp(h, bola);
    const res = await call(h, 'POST', fn('signInWithPasskeyPublicAuth'), { assertion: bolaKey.assert(await signInOptions()) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().session.secondFactorRequired).toBeUndefined();
    const wallet = await call(h, 'GET', fn('getWalletStateBearerWallet'), {}, { token: res.json().session.accessToken });
    expect(wallet.statusCode, wallet.body).toBe(200);
  });
});

describe('paying', () => {
  it('buys airtime confirmed with a passkey instead of the PIN, once', async () => {
    const before = await walletBalance(h, ada.id);
    const options = await paymentOptions(ada);
    expect(options.userVerification).toBe('required');
    const confirm = header(adaKey.assert(options));
    const res = await buy(ada, confirm);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().transaction.status).toBe('success');
    expect(await walletBalance(h, ada.id)).toBe(before - 100);
    // The same assertion again (a captured one): its challenge is spent.
    const replay = await buy(ada, confirm);
    expect(replay.json().error.code).toBe('PASSKEY_INVALID');
    expect(await walletBalance(h, ada.id)).toBe(before - 100);
  });

  it('refuses an assertion given for another payment', async () => {
    const options = await paymentOptions(ada, airtime);
    const res = await buy(ada, header(adaKey.assert(options)), { ...airtime, amount: 5000 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('PASSKEY_INVALID');
    const otherOperation = await paymentOptions(ada, { ...airtime }, 'buyData');
    const viaAirtime = await buy(ada, header(adaKey.assert(otherOperation)));
    expect(viaAirtime.json().error.code).toBe('PASSKEY_INVALID');
  });

  it("refuses another customer's passkey", async () => {
    const before = await walletBalance(h, bola.id);
    const options = await paymentOptions(bola);
    const res = await buy(bola, header(adaKey.assert(options)));
    expect(res.json().error.code).toBe('PASSKEY_INVALID');
    expect(await walletBalance(h, bola.id)).toBe(before);
  });

  it('sends money to another customer confirmed with a passkey, bound to the recipient and amount', async () => {
    await approveTier2(h, ada.id, 'Ada Obi');
    await setUserFacts(h, bola.id, { username: `bola${bola.id.slice(0, 6)}` });
    const transfer = { username: `bola${bola.id.slice(0, 6)}`, amount: 250 };
    const [adaBefore, bolaBefore] = [await walletBalance(h, ada.id), await walletBalance(h, bola.id)];
    const send = (input: Record<string, unknown>, headers: Record<string, string>) =>
      call(h, 'POST', fn('transferWalletFnBearerWallet'), input, { token: ada.token, headers });
    const options = await paymentOptions(ada, transfer, 'transferWalletFn');
    const confirm = header(adaKey.assert(options));
    expect((await send({ ...transfer, amount: 2500 }, confirm)).json().error.code).toBe('PASSKEY_INVALID');
    const again = header(adaKey.assert(await paymentOptions(ada, transfer, 'transferWalletFn')));
    const res = await send(transfer, again);
    expect(res.statusCode, res.body).toBe(200);
    expect(await walletBalance(h, ada.id)).toBe(adaBefore - 250);
    expect(await walletBalance(h, bola.id)).toBe(bolaBefore + 250);
    expect((await send(transfer, again)).json().error.code).toBe('PASSKEY_INVALID');
  });

  it('still takes the PIN, and refuses the passkey once payments are off', async () => {
    const withPin = await buy(ada, {}, { ...airtime, pin: PIN });
    expect(withPin.statusCode, withPin.body).toBe(200);
    const options = await paymentOptions(bola);
    await call(h, 'POST', fn('setPasskeyPaymentsBearerAuth'), { on: false }, { token: bola.token });
    const res = await buy(bola, header(bolaKey.assert(options)));
    expect(res.json().error.code).toBe('CONFLICT');
    const noOptions = await call(
      h,
      'POST',
      fn('passkeyPaymentOptionsBearerAuth'),
      { operation: 'buyAirtime', input: airtime },
      { token: bola.token },
    );
    expect(noOptions.json().error.code).toBe('CONFLICT');
  });

  it('refuses a removed passkey for sign-in and payments', async () => {
    const options = await paymentOptions(ada);
    const signIn = await signInOptions();
    const gone = await call(h, 'POST', fn('deletePasskeyBearerAuth'), { id: adaPasskeyId }, { token: ada.token });
    expect(gone.json()).toMatchObject({ deleted: true });
    const pay = await buy(ada, header(adaKey.assert(options)));
    expect(pay.json().error.code).toMatch(/PASSKEY_INVALID|CONFLICT/);
    const res = await call(h, 'POST', fn('signInWithPasskeyPublicAuth'), { assertion: adaKey.assert(signIn) });
    expect(res.json().error.code).toBe('PASSKEY_INVALID');
    const list = await call(h, 'GET', fn('listPasskeysBearerAuth'), {}, { token: ada.token });
    expect(list.json()).toEqual({ ok: true, items: [], payments: false });
    const other = await call(h, 'POST', fn('deletePasskeyBearerAuth'), { id: adaPasskeyId }, { token: bola.token });
    expect(other.json().error.code).toBe('NOT_FOUND');
    await expectLedgerOk(h);
  });
});
