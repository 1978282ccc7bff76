import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, emailGrant, signIn, type Harness, type TestUser } from '../helpers/harness.js';

// Issue 43: the codes the service sends itself (the sign-in code by e-mail, the phone code by SMS, the step-up
// code) are written in the customer's saved language; English for an address with no account.

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 180_000);
afterAll(async () => h?.close());

const mailbox = async (to: string) =>
  (await h.app.inject({ url: `/sandbox/mailbox?to=${encodeURIComponent(to)}` })).json().items as { subject: string; text: string }[];
const smsTo = async (to: string) => (await h.app.inject({ url: `/sandbox/sms?to=${to}` })).json().items as { text: string }[];

async function speaking(language: string): Promise<TestUser> {
  const u = await signIn(h);
  const res = await call(h, 'POST', '/_serverFn/updatePreferencesBearerSettings', { language }, { token: u.token });
  expect(res.statusCode, res.body).toBe(200);
  return u;
}

describe('codes in the customer language', () => {
  it('a Hausa customer gets the sign-in code e-mail in Hausa', async () => {
    const u = await speaking('ha');
    h.clock.advance(61_000); // past the sign-in code's cooldown
    const res = await call(h, 'POST', '/_serverFn/sendLoginOtpPublicAuth', { email: u.email.toUpperCase() });
    expect(res.statusCode, res.body).toBe(200);
    const [mail] = await mailbox(u.email);
    expect(mail.subject).toBe('Lambar shigarka');
    expect(mail.text).toMatch(/^Lambar shigarka ita ce \d{6}\. Za ta ƙare cikin mintuna 10\./);
    expect(mail.text).not.toContain('expires');
  });

  it('a Hausa customer gets the phone code SMS in Hausa', async () => {
    const u = await speaking('ha');
    const res = await call(h, 'POST', '/_serverFn/sendPhoneOtpPublicAuth', { phone: '08035554301' }, { token: u.token });
    expect(res.statusCode, res.body).toBe(200);
    const [sms] = await smsTo('08035554301');
    expect(sms.text).toMatch(/^Lambar tabbatarwarka ita ce \d{6}\. Za ta ƙare cikin mintuna 10\. Kada ka ba kowa ita\.$/);
  });

  it('a Yoruba customer gets the step-up code in Yoruba, and a Pidgin one the sign-in code in Pidgin', async () => {
    const yo = await speaking('yo');
    await emailGrant(h, yo);
    expect((await mailbox(yo.email)).find((m) => m.subject === 'Kóòdù ìjẹ́rìísí ààbò rẹ')?.text).toMatch(/^Kóòdù ìjẹ́rìísí rẹ ni \d{6}\./);
    const pcm = await speaking('pcm');
    h.clock.advance(61_000);
    await call(h, 'POST', '/_serverFn/sendLoginOtpPublicAuth', { email: pcm.email });
    expect((await mailbox(pcm.email))[0].text).toMatch(/^Your sign-in code na \d{6}\. E go expire after 10 minutes\./);
  });

  it('an address with no account, and a customer who never chose a language, read English', async () => {
    const res = await call(h, 'POST', '/_serverFn/sendLoginOtpPublicAuth', { email: 'nobody-yet@example.com' });
    expect(res.statusCode, res.body).toBe(200);
    const [mail] = await mailbox('nobody-yet@example.com');
    expect(mail.subject).toBe('Your sign-in code');
    expect(mail.text).toMatch(/^Your sign-in code is \d{6}\. It expires in 10 minutes\./);
    const u = await signIn(h);
    await call(h, 'POST', '/_serverFn/sendPhoneOtpPublicAuth', { phone: '08035554302' }, { token: u.token });
    expect((await smsTo('08035554302'))[0].text).toMatch(/^Your verification code is \d{6}\./);
  });
});
