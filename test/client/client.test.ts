import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createServiceClient, NetworkError } from '../../client/src/index.js';
import { fundWallet, lastCode, listeningHarness, type Harness } from '../helpers/harness.js';
import { setKycTier } from '../helpers/factories.js';

/** The published client package (client/) against a real listening server: the README's example, typed end to end. */
describe('@vtu-wallet/client', () => {
  let h: Harness;
  let base: string;
  beforeAll(async () => {
    const listening = await listeningHarness();
    h = listening;
    base = listening.base;
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('signs in, reads the wallet, buys airtime once per idempotency key, and reports refusals as ApiError', async () => {
    let token: string | null = null;
    const api = createServiceClient({ baseUrl: base, accessToken: () => token });
    const email = 'client-test@example.com';
    await api.post('/_serverFn/sendLoginOtpPublicAuth', { email });
    const { session } = await api.post('/_serverFn/verifyLoginOtpPublicAuth', { email, code: await lastCode(h, email) });
    token = session.accessToken;

    const { profile } = await api.get('/_serverFn/getProfileBearerSettings');
    expect(profile.email).toBe(email);
    await setKycTier(h, profile.id, 1);
    await fundWallet(h, profile.id, 1000);
    const grant = await (async () => {
      await api.post('/_serverFn/sendStepupEmailCodeBearer2FA', {});
      return (await api.post('/_serverFn/verifyStepupChallengeBearer2FA', { totpCode: await lastCode(h, email) })).grantToken;
    })();
    await api.post('/_serverFn/setTransactionPinFnBearerSettings', { pin: '1357' }, { grantToken: grant });

    const key = 'client-test-airtime-1';
    const input = { network: 'mtn', phone: '08031234567', amount: 200, pin: '1357' } as const;
    const first = await api.post('/_serverFn/buyAirtimeBearerVTU', input, { idempotencyKey: key });
    const again = await api.post('/_serverFn/buyAirtimeBearerVTU', input, { idempotencyKey: key });
    expect(again.transaction.reference).toBe(first.transaction.reference);
    expect((await api.get('/_serverFn/getWalletStateBearerWallet')).balance).toBe(800);

    const refused = await api.post('/_serverFn/buyAirtimeBearerVTU', { ...input, amount: 5000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('INSUFFICIENT_FUNDS');
    const invalid = await api.post('/_serverFn/buyAirtimeBearerVTU', { ...input, phone: '12' }).catch((e: unknown) => e);
    expect((invalid as ApiError).code).toBe('VALIDATION_FAILED');
    expect((invalid as ApiError).issues[0].path).toBe('phone');
    const wrongPin = await api.post('/_serverFn/buyAirtimeBearerVTU', { ...input, pin: '9999' }).catch((e: unknown) => e);
    expect((wrongPin as ApiError).code).toBe('INVALID_PIN');
    expect((wrongPin as ApiError).details).toEqual({ triesLeft: 4 });

    token = null;
    expect(((await api.get('/_serverFn/getWalletStateBearerWallet').catch((e: unknown) => e)) as ApiError).status).toBe(401);
  });

  it('no answer at all is a NetworkError', async () => {
    const api = createServiceClient({ baseUrl: 'http://127.0.0.1:9' });
    await expect(api.get('/_serverFn/getPushPublicKeyPublicPush')).rejects.toBeInstanceOf(NetworkError);
  });
});
