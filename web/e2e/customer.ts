import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { adminToken, api, apiSignIn, approveKyc, PNG } from './support';

export interface Customer {
  email: string;
  token: string;
  id: string;
  admin: string;
}

export const TX_PIN = '1357';
const LOGIN_PIN = '864209';

/**
 * A customer ready to buy, prepared through the API: Tier 1 approved by the operator, the wallet funded through the
 * sandbox processor's checkout, a transaction PIN and a login PIN set with an e-mailed step-up. `operator` is the spec's own
 * operator (ADMIN_EMAILS in playwright.config.ts); without one (null), Tier 1 is the sandbox liveness check's own
 * approval, waited for (`admin` is then empty).
 */
export async function readyCustomer(request: APIRequestContext, operator: string | null, naira = 20_000): Promise<Customer> {
  const email = `cust-${randomUUID().slice(0, 8)}@example.com`;
  const admin = operator === null ? '' : await adminToken(request, operator);
  const token = await apiSignIn(request, email);
  const id = (await api(request, token, 'getProfileBearerSettings', {}, 'GET')).profile.id as string;
  const frames = [];
  for (let i = 0; i < 3; i++)
    frames.push(
      (
        await api(request, token, 'uploadKycFileBearerKYC', {
          fileName: `f${i}.png`,
          contentType: 'image/png',
          contentBase64: PNG.toString('base64'),
        })
      ).path,
    );
  await api(request, token, 'submitTier3KycBearerKYC', { frames });
  if (operator !== null) await approveKyc(request, admin, email, 1);
  else
    await expect
      .poll(async () => (await api(request, token, 'getKycStatusBearerKYC', {}, 'GET')).tier, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(1);
  // Funded as a customer funds it, through the processor's checkout (an operator adjustment of this size would wait
  // for a second operator: four-eyes, issue 30).
  if (naira > 0) {
    const intent = await api(request, token, 'createTopupIntentBearerWallet', { amount: naira });
    await request.post('/sandbox/processor/pay', { data: { reference: intent.reference, outcome: 'success' } });
    await expect
      .poll(async () => (await api(request, token, 'getWalletStateBearerWallet', {}, 'GET')).balance, { timeout: 30_000 })
      .toBe(naira);
  }
  const since = Date.now();
  await api(request, token, 'sendStepupEmailCodeBearer2FA');
  const grant = (
    await api(request, token, 'verifyStepupChallengeBearer2FA', { totpCode: await patientCode(request, email, 'mailbox', since - 1) })
  ).grantToken;
  for (const [op, pin] of [
    ['setTransactionPinFnBearerSettings', TX_PIN],
    ['setLoginPinBearerAuth', LOGIN_PIN],
  ]) {
    const res = await request.post(`/_serverFn/${op}`, {
      data: { data: { pin } },
      headers: { authorization: `Bearer ${token}`, 'x-grant-token': grant },
    });
    expect((await res.json()).ok).toBe(true);
  }
  return { email, token, id, admin };
}

/** Signs the customer in, in the browser, with the login PIN (a second session of the same person). */
export async function signInWithPin(page: Page, c: Customer) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign in with login PIN' }).click();
  await page.getByLabel('E-mail or username').fill(c.email);
  await page.getByLabel('Login PIN').fill(LOGIN_PIN);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('balance')).toBeVisible();
}

/** Types the transaction PIN on the pad: the fourth digit submits it (no Confirm tap). */
export async function typePin(page: Page, digits = TX_PIN) {
  for (const d of digits) await page.getByRole('button', { name: `Digit ${d}` }).click();
}

/** Tier 2 through the API: a NIN known to the identity simulator, the phone verified by SMS code, the slip, approval. */
export async function tier2(request: APIRequestContext, c: Customer, fullName: string) {
  const phone = `0803${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
  const nin = String(10_000_000_000 + Math.floor(Math.random() * 89_999_999_999));
  const [firstName, lastName] = fullName.split(' ');
  await request.post('/sandbox/identity/nin', { data: { nin, firstName, lastName, phone, dateOfBirth: '1990-01-01' } });
  await api(request, c.token, 'updateProfileBearerSettings', { fullName });
  const since = Date.now();
  await api(request, c.token, 'sendPhoneOtpPublicAuth', { phone });
  await api(request, c.token, 'verifyPhoneOtpPublicAuth', { phone, code: await patientCode(request, phone, 'sms', since - 1) });
  const slipPath = (
    await api(request, c.token, 'uploadKycFileBearerKYC', {
      fileName: 'slip.png',
      contentType: 'image/png',
      contentBase64: PNG.toString('base64'),
    })
  ).path;
  await api(request, c.token, 'submitNinKycBearerKYC', { nin, slipPath, fullName });
  await approveKyc(request, c.admin, c.email, 2);
  return phone;
}

/**
 * The newest code sent to `to` after `after`. Unlike newestCode it skips messages without a code (a notification
 * e-mail delivered by a job can arrive after the code), and it waits longer: on a busy machine mail jobs are slow.
 */
async function patientCode(request: APIRequestContext, to: string, channel: 'mailbox' | 'sms', after: number): Promise<string> {
  for (let i = 0; i < 150; i++) {
    const box = await (await request.get(`/sandbox/${channel}?to=${encodeURIComponent(to)}`)).json();
    const code = (box.items as { createdAt: string; text: string }[])
      .filter((m) => Date.parse(m.createdAt) > after)
      .map((m) => /\b(\d{6})\b/.exec(m.text)?.[1])
      .find(Boolean);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code for ${to}`);
}
