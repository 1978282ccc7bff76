import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { call, createHarness, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';

// Issue 44: admins reword the customer e-mails and SMS per language, with a preview; the variables are checked; a
// change is audited; reset puts the default back.
let h: Harness;
let admin: TestUser;
let support: TestUser;
const P = '/_serverFn/';
const op = (method: 'GET' | 'POST', name: string, data?: Record<string, unknown>, who = admin) =>
  call(h, method, `${P}${name}BearerAdmin`, data, { token: who.token });
const mailbox = async (to: string) =>
  (await h.app.inject({ url: `/sandbox/mailbox?to=${encodeURIComponent(to)}` })).json().items as { subject: string; text: string }[];

beforeAll(async () => {
  h = await createHarness({ env: { ADMIN_EMAILS: 'admin@example.com', OPERATOR_2FA: 'optional' } });
  admin = await signIn(h, 'admin@example.com');
  support = await signIn(h);
  expect((await op('POST', 'adminGrantRole', { email: support.email, role: 'support' })).statusCode).toBe(200);
});
afterAll(async () => h?.close());

describe('message templates (issue 44)', () => {
  it('lists each template with its default, variables and required ones, per language', async () => {
    const res = await op('GET', 'adminListMessageTemplates', { language: 'yo' });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as { key: string; channel: string; body: string; variables: string[]; required: string[] }[];
    expect(items.find((t) => t.key === 'code.signInCode')).toMatchObject({
      channel: 'email',
      body: expect.stringMatching(/^Kóòdù ìwọlé rẹ ni \{\{code\}\}/),
      variables: ['code'],
      required: ['code'],
    });
    expect(items.find((t) => t.key === 'code.sendingNumberCode')).toMatchObject({ channel: 'sms', variables: ['code', 'phone'] });
    expect(items.find((t) => t.key === 'notice.topup_credited')).toMatchObject({ channel: 'notice', required: ['amount'] });
    expect((await op('GET', 'adminListMessageTemplates', { language: 'yo' }, support)).statusCode).toBe(403);
  });

  it('refuses an unknown variable and a missing required one with a clear 400, and previews with sample values', async () => {
    const unknown = await op('POST', 'adminSaveMessageTemplate', {
      key: 'code.signInCode',
      language: 'en',
      subject: 'Code',
      body: 'Hi {{name}}: {{code}}',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe('The body uses {{name}}, which this template does not have: it can use {{code}}');
    const missing = await op('POST', 'adminSaveMessageTemplate', {
      key: 'code.signInCode',
      language: 'en',
      subject: 'Code',
      body: 'Here is your code.',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe('The body must contain {{code}}: the message is useless without it');
    const broken = await op('POST', 'adminPreviewMessageTemplate', { key: 'code.phoneCode', language: 'en', body: 'Code {{ code }}' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.message).toContain('write a variable as {{name}}');
    expect((await op('POST', 'adminSaveMessageTemplate', { key: 'code.nothing', language: 'en', body: 'x' })).statusCode).toBe(400);

    const preview = await op('POST', 'adminPreviewMessageTemplate', {
      key: 'code.sendingNumberCode',
      language: 'pcm',
      body: 'Code {{code}} for {{phone}}',
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ subject: null, body: 'Code 482913 for 08031234567', sms: 'Code 482913 for 08031234567' });
  });

  it('a saved sign-in code e-mail is what customers get, audited; reset puts the default back', async () => {
    const saved = await op('POST', 'adminSaveMessageTemplate', {
      key: 'code.signInCode',
      language: 'en',
      subject: 'Sign in to Demo VTU',
      body: 'Use {{code}} to sign in. It works for 10 minutes.',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().template).toMatchObject({ overridden: true, subject: 'Sign in to Demo VTU' });

    const res = await call(h, 'POST', `${P}sendLoginOtpPublicAuth`, { email: 'new-reader@example.com' });
    expect(res.statusCode, res.body).toBe(200);
    const [mail] = await mailbox('new-reader@example.com');
    expect(mail.subject).toBe('Sign in to Demo VTU');
    expect(mail.text).toMatch(/^Use \d{6} to sign in\. It works for 10 minutes\.$/);

    const audit = await rows<{ target_ids: string[]; before_state: unknown; after_state: unknown }>(
      h.app.services.db,
      sql`SELECT target_ids, before_state, after_state FROM audit_log WHERE action = 'adminSaveMessageTemplate' AND outcome = 'ok'`,
    );
    expect(audit).toEqual([
      {
        target_ids: ['code.signInCode:en'],
        before_state: null,
        after_state: { subject: 'Sign in to Demo VTU', body: 'Use {{code}} to sign in. It works for 10 minutes.' },
      },
    ]);

    const reset = await op('POST', 'adminResetMessageTemplate', { key: 'code.signInCode', language: 'en' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().template).toMatchObject({ overridden: false, subject: 'Your sign-in code' });
    h.clock.advance(61_000);
    await call(h, 'POST', `${P}sendLoginOtpPublicAuth`, { email: 'new-reader@example.com' });
    expect((await mailbox('new-reader@example.com'))[0].subject).toBe('Your sign-in code');
  });

  it("a notification's wording in one language reaches a customer of that language, and no other", async () => {
    const saved = await op('POST', 'adminSaveMessageTemplate', {
      key: 'notice.report_resolved',
      language: 'ha',
      subject: 'Mun warware rahotonka',
      body: 'Amsa: {{text}}',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const resolveFor = async (language: string) => {
      const u = await signIn(h);
      expect((await call(h, 'POST', `${P}updatePreferencesBearerSettings`, { language }, { token: u.token })).statusCode).toBe(200);
      await fundWallet(h, u.id, 1000);
      const reference = (await call(h, 'GET', `${P}getWalletStateBearerWallet`, undefined, { token: u.token })).json().log[0].reference;
      const report = await call(
        h,
        'POST',
        `${P}createTransactionReportBearerReports`,
        { reference, category: 'wrong_amount', description: 'I was charged the wrong amount' },
        { token: u.token },
      );
      expect(report.statusCode, report.body).toBe(200);
      expect((await op('POST', 'adminResolveTransactionReport', { id: report.json().report.id, note: 'Amount checked.' })).statusCode).toBe(
        200,
      );
      await h.app.services.jobs.drain();
      return (await mailbox(u.email))[0];
    };
    const hausa = await resolveFor('ha');
    expect(hausa.subject).toBe('Mun warware rahotonka');
    expect(hausa.text).toMatch(/^Amsa: Amount checked\./);
    const english = await resolveFor('en');
    expect(english.subject).not.toBe('Mun warware rahotonka');
  });
  it("the webhook-disabled e-mail is a template: its variables are checked, and an admin's wording is what the reseller gets", async () => {
    const list = (await op('GET', 'adminListMessageTemplates', { language: 'en' })).json().items as { key: string }[];
    expect(list.find((t) => t.key === 'code.webhookDisabled')).toMatchObject({
      channel: 'email',
      label: 'Webhook endpoint disabled (e-mail)',
      subject: 'Your {{mode}} webhook endpoint was disabled',
      variables: ['url', 'reason', 'mode'],
      required: ['mode', 'url', 'reason'],
    });
    const missing = await op('POST', 'adminSaveMessageTemplate', {
      key: 'code.webhookDisabled',
      language: 'en',
      subject: 'Off',
      body: '{{url}} is off.',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe('The body must contain {{mode}}, {{reason}}: the message is useless without it');
    const preview = await op('POST', 'adminPreviewMessageTemplate', {
      key: 'code.webhookDisabled',
      language: 'en',
      subject: 'Your {{mode}} webhook endpoint was disabled',
      body: '{{mode}}: {{url}} ({{reason}})',
    });
    expect(preview.json().body).toBe('test: https://example.com/webhooks (the picture is blurred)');
    const saved = await op('POST', 'adminSaveMessageTemplate', {
      key: 'code.webhookDisabled',
      language: 'en',
      subject: 'Webhook off ({{mode}})',
      body: 'Your {{mode}} endpoint {{url}} is off: {{reason}}. Call us.',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // A reseller's test endpoint disabled in the test world: the live world mails the customer with the admin's wording.
    const reseller = await signIn(h);
    await h.app.services.webhooks.testEndpointDisabled({
      email: reseller.email,
      url: 'https://shop.example.com/hooks',
      reason: 'answered 500',
    });
    await h.app.services.jobs.drain();
    const [mail] = (await mailbox(reseller.email)).filter((m) => m.subject.startsWith('Webhook off'));
    expect(mail).toMatchObject({ subject: 'Webhook off (test)' });
    expect(mail.text).toMatch(/^Your test endpoint https:\/\/shop\.example\.com\/hooks is off: answered 500\. Call us\./);
    // In Yoruba, the default (no override there), with the mode in Yoruba.
    const yoruba = await signIn(h);
    expect((await call(h, 'POST', `${P}updatePreferencesBearerSettings`, { language: 'yo' }, { token: yoruba.token })).statusCode).toBe(
      200,
    );
    await h.app.services.webhooks.testEndpointDisabled({
      email: yoruba.email,
      url: 'https://shop.example.com/hooks',
      reason: 'answered 500',
    });
    await h.app.services.jobs.drain();
    expect((await mailbox(yoruba.email)).map((m) => m.subject)).toContain('A ti pa òpin webhook ìdánwò rẹ');
  });
});
