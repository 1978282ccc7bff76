import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { call as rawCall, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { approveTier2, setKycTier, setUserFacts } from '../helpers/factories.js';
import { FILE_BYTES, freshNin, kycUser, livenessOutcome, nuban, registerAccount, registerNin, upload } from './factories.js';

let h: Harness;
let admin: TestUser;
/** Every response body of this file, scanned at the end for NINs and account numbers. */
const bodies: string[] = [];
/** NINs and account numbers used in this file. */
const secrets: string[] = [];

const call = async (...args: Parameters<typeof rawCall>) => {
  const res = await rawCall(...args);
  bodies.push(res.body);
  return res;
};
const fn = (name: string) => `/_serverFn/${name}BearerKYC`;
const adm = (name: string) => `/_serverFn/${name}BearerAdmin`;

beforeAll(async () => {
  h = await createHarness();
  admin = await signIn(h, 'admin@example.com');
});
afterAll(async () => h?.close());

async function pendingId(userId: string, tier: number): Promise<string> {
  const r = await rows<{ id: string }>(
    h.app.services.db,
    sql`SELECT id FROM kyc_submissions WHERE user_id = ${userId} AND tier = ${tier} AND status = 'pending'`,
  );
  expect(r).toHaveLength(1);
  return r[0].id;
}

async function review(submissionId: string, decision: 'approve' | 'reject', reason?: string) {
  const res = await call(
    h,
    'POST',
    adm('adminReviewKyc'),
    { submissionId, decision, ...(reason ? { reason } : {}) },
    { token: admin.token },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().submission;
}

async function status(token: string) {
  const res = await call(h, 'GET', fn('getKycStatus'), undefined, { token });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function passTier1(u: TestUser) {
  const frames = [await upload(h, u.token), await upload(h, u.token, 'png'), await upload(h, u.token)];
  const res = await call(h, 'POST', fn('submitTier3Kyc'), { frames }, { token: u.token });
  expect(res.statusCode, res.body).toBe(200);
  // The sandbox's liveness check passes by default: Tier 1 at once (test/kyc/liveness.test.ts).
  expect(res.json().submission.status).toBe('approved');
}

describe('banks and status', () => {
  it('lists banks with CBN codes on both path forms', async () => {
    const u = await signIn(h);
    for (const url of [fn('listBanks'), '/api/v1/listBanks']) {
      const res = await call(h, 'GET', url, undefined, { token: u.token });
      expect(res.statusCode).toBe(200);
      expect(res.json().items).toContainEqual({ code: '058', name: 'Guaranty Trust Bank' });
    }
  });

  it('starts with tier 0 and nothing submitted', async () => {
    const u = await signIn(h);
    expect(await status(u.token)).toMatchObject({ ok: true, tier: 0, tiers: [1, 2, 3].map((tier) => ({ tier, status: 'none' })) });
  });
});

describe('uploadKycFile', () => {
  it('accepts JPEG, PNG and PDF checked by content and refuses wrong magic bytes', async () => {
    const u = await signIn(h);
    for (const kind of ['jpeg', 'png', 'pdf'] as const)
      expect(await upload(h, u.token, kind)).toMatch(/^[A-Za-z0-9_-]{32}\.(jpg|png|pdf)$/);
    const lie = await call(
      h,
      'POST',
      fn('uploadKycFile'),
      { fileName: 'a.png', contentType: 'image/png', contentBase64: FILE_BYTES.jpeg().toString('base64') },
      { token: u.token },
    );
    expect(lie.statusCode).toBe(400);
    expect(lie.json().error.message).toMatch(/not image\/png/);
    const html = await call(
      h,
      'POST',
      fn('uploadKycFile'),
      { fileName: 'a.jpg', contentType: 'image/jpeg', contentBase64: Buffer.from('<html><script>1</script>').toString('base64') },
      { token: u.token },
    );
    expect(html.statusCode).toBe(400);
    const gif = await call(
      h,
      'POST',
      fn('uploadKycFile'),
      { fileName: 'a.gif', contentType: 'image/gif', contentBase64: 'R0lGODlh' },
      { token: u.token },
    );
    expect(gif.statusCode).toBe(400);
    expect(gif.json().error.code).toBe('VALIDATION_FAILED');
    const junk = await call(
      h,
      'POST',
      fn('uploadKycFile'),
      { fileName: 'a.jpg', contentType: 'image/jpeg', contentBase64: '@@not base64@@' },
      { token: u.token },
    );
    expect(junk.statusCode).toBe(400);
  });

  it('refuses a file over 5 MiB, and a body over the limit', async () => {
    const u = await signIn(h);
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 7);
    big[0] = 0xff;
    big[1] = 0xd8;
    big[2] = 0xff;
    const res = await call(
      h,
      'POST',
      fn('uploadKycFile'),
      { fileName: 'big.jpg', contentType: 'image/jpeg', contentBase64: big.toString('base64') },
      { token: u.token },
    );
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    const exact = Buffer.alloc(5 * 1024 * 1024, 7);
    exact[0] = 0x25; // %PDF-
    exact.write('%PDF-', 0);
    const ok = await call(
      h,
      'POST',
      fn('uploadKycFile'),
      { fileName: 'max.pdf', contentType: 'application/pdf', contentBase64: exact.toString('base64') },
      { token: u.token },
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().sizeBytes).toBe(5 * 1024 * 1024);
    const huge = await call(
      h,
      'POST',
      fn('uploadKycFile'),
      { fileName: 'huge.jpg', contentType: 'image/jpeg', contentBase64: 'A'.repeat(8 * 1024 * 1024) },
      { token: u.token },
    );
    expect(huge.statusCode).toBe(413);
  });
});

describe('tier ladder through operator review', () => {
  it('walks tiers 1, 2 and 3 through operator approval, raising the tier, auditing, notifying and emitting kyc.approved', async () => {
    const approvedEvents: { userId: string; tier: number }[] = [];
    h.app.services.events.on('kyc.approved', (e) => (approvedEvents.push(e), null));
    const u = await kycUser(h, { fullName: 'Ada Grace Obi' });
    // The liveness check is unsure: Tier 1 goes to the operator queue.
    await livenessOutcome(h, u.email, 'review');

    // Tier 1: liveness frames.
    const frames = [await upload(h, u.token), await upload(h, u.token), await upload(h, u.token, 'png')];
    const t1 = await call(h, 'POST', '/api/v1/submitTier3Kyc', { frames }, { token: u.token, headers: { 'idempotency-key': 'kyc-t1' } });
    expect(t1.statusCode, t1.body).toBe(200);
    expect(t1.json().submission).toMatchObject({ tier: 1, status: 'pending' });
    const again = await call(h, 'POST', fn('submitTier3Kyc'), { frames }, { token: u.token });
    expect(again.statusCode).toBe(409);
    expect((await status(u.token)).tiers[0]).toEqual({ tier: 1, status: 'pending' });

    const list = await call(h, 'GET', adm('adminListKycSubmissions'), { tier: 1 }, { token: admin.token });
    expect(list.statusCode).toBe(200);
    const item = list.json().items.find((i: { userId: string }) => i.userId === u.id);
    expect(item).toMatchObject({ tier: 1, status: 'pending', email: u.email });
    expect(list.json()).toMatchObject({ limit: 20, offset: 0 });

    const view = await call(h, 'GET', adm('adminGetKycSubmission'), { submissionId: item.id }, { token: admin.token });
    expect(view.statusCode).toBe(200);
    const files = view.json().submission.files;
    expect(files).toHaveLength(3);
    const fetched = await h.app.inject({ method: 'GET', url: files[0].url.replace(h.config.publicUrl, '') });
    expect(fetched.statusCode).toBe(200);

    const notAdmin = await call(h, 'POST', adm('adminReviewKyc'), { submissionId: item.id, decision: 'approve' }, { token: u.token });
    expect(notAdmin.statusCode).toBe(403);
    const noReason = await call(h, 'POST', adm('adminReviewKyc'), { submissionId: item.id, decision: 'reject' }, { token: admin.token });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.issues[0].path).toBe('reason');

    expect(await review(item.id, 'approve')).toMatchObject({ tier: 1, status: 'approved' });
    const twice = await call(
      h,
      'POST',
      adm('adminReviewKyc'),
      { submissionId: item.id, decision: 'reject', reason: 'changed my mind' },
      { token: admin.token },
    );
    expect(twice.statusCode).toBe(409);
    expect((await status(u.token)).tier).toBe(1);

    // Tier 2: NIN checked against the look-up, slip reviewed.
    const nin = freshNin();
    secrets.push(nin);
    await registerNin(h, { nin, firstName: 'Ada', middleName: 'Grace', lastName: 'Obi', phone: u.phone! });
    const slip = await upload(h, u.token, 'pdf');
    const t2 = await call(
      h,
      'POST',
      '/api/v1/submitNinKyc',
      { nin, slipPath: slip },
      { token: u.token, headers: { 'idempotency-key': 'kyc-t2' } },
    );
    expect(t2.statusCode, t2.body).toBe(200);
    expect(t2.json().submission).toMatchObject({ tier: 2, status: 'pending' });
    const v2 = await call(h, 'GET', adm('adminGetKycSubmission'), { submissionId: t2.json().submission.id }, { token: admin.token });
    expect(v2.json().submission).toMatchObject({
      verifiedName: 'Ada Grace Obi',
      details: { nameMatched: true, phoneMatched: true },
      phoneVerified: true,
    });
    await review(t2.json().submission.id, 'approve');
    await expect(h.app.services.kyc.assertTransferEligible(u.id)).resolves.toEqual({ fullName: expect.any(String) });

    // Tier 3: bank name enquiry + ID document.
    const accountNumber = nuban('058');
    secrets.push(accountNumber);
    await registerAccount(h, { bankCode: '058', accountNumber, accountName: 'OBI ADA GRACE' });
    const doc = await upload(h, u.token, 'jpeg');
    const t3 = await call(
      h,
      'POST',
      '/api/v1/submitBankKyc',
      { bankCode: '058', accountNumber, documentType: 'passport', documentPath: doc },
      { token: u.token, headers: { 'idempotency-key': 'kyc-t3' } },
    );
    expect(t3.statusCode, t3.body).toBe(200);
    expect(t3.json().submission.status).toBe('pending');
    const v3 = await call(h, 'GET', adm('adminGetKycSubmission'), { submissionId: t3.json().submission.id }, { token: admin.token });
    expect(v3.json().submission.details).toMatchObject({
      bankName: 'Guaranty Trust Bank',
      accountNumberMasked: `******${accountNumber.slice(-4)}`,
      documentType: 'passport',
    });
    await review(t3.json().submission.id, 'approve');

    expect(await status(u.token)).toMatchObject({ ok: true, tier: 3, tiers: [1, 2, 3].map((tier) => ({ tier, status: 'approved' })) });
    const tier = await rows<{ kyc_tier: number }>(h.app.services.db, sql`SELECT kyc_tier FROM users WHERE id = ${u.id}`);
    expect(Number(tier[0].kyc_tier)).toBe(3);
    expect(approvedEvents.filter((e) => e.userId === u.id)).toEqual([1, 2, 3].map((t) => ({ userId: u.id, tier: t })));
    const audits = await rows<{ action: string; actor_id: string }>(
      h.app.services.db,
      sql`SELECT a.action, a.actor_id FROM audit_log a JOIN kyc_submissions s ON s.id::text = a.subject_id WHERE s.user_id = ${u.id} AND a.outcome = 'ok' ORDER BY a.created_at`,
    );
    expect(audits).toEqual([1, 2, 3].map(() => ({ action: 'adminReviewKyc', actor_id: admin.id })));
    const notes = await rows<{ kind: string; title: string }>(
      h.app.services.db,
      sql`SELECT kind, title FROM notifications WHERE user_id = ${u.id} AND kind = 'kyc_decision'`,
    );
    expect(notes).toHaveLength(3);

    const done = await call(h, 'POST', fn('submitTier3Kyc'), { frames }, { token: u.token });
    expect(done.statusCode).toBe(409);
  });

  it('refuses a tier before the previous one is approved', async () => {
    const u = await kycUser(h);
    const slip = await upload(h, u.token);
    const nin = await call(h, 'POST', fn('submitNinKyc'), { nin: freshNin(), slipPath: slip }, { token: u.token });
    expect(nin.statusCode).toBe(400);
    expect(nin.json().error.code).toBe('KYC_PREVIOUS_TIER_REQUIRED');
    const bank = await call(
      h,
      'POST',
      fn('submitBankKyc'),
      { bankCode: '044', accountNumber: nuban('044'), documentType: 'passport', documentPath: slip },
      { token: u.token },
    );
    expect(bank.json().error.code).toBe('KYC_PREVIOUS_TIER_REQUIRED');
    await setKycTier(h, u.id, 1);
    const bank2 = await call(
      h,
      'POST',
      fn('submitBankKyc'),
      { bankCode: '044', accountNumber: nuban('044'), documentType: 'passport', documentPath: slip },
      { token: u.token },
    );
    expect(bank2.statusCode).toBe(400);
    expect(bank2.json().error.code).toBe('KYC_PREVIOUS_TIER_REQUIRED');
  });

  it('rejects a NIN whose name does not match, with a reason, and accepts a resubmission', async () => {
    const u = await kycUser(h, { fullName: 'Chinedu Eze' });
    await passTier1(u);
    const wrong = freshNin();
    const right = freshNin();
    secrets.push(wrong, right);
    await registerNin(h, { nin: wrong, firstName: 'Bola', lastName: 'Ahmed', phone: u.phone! });
    await registerNin(h, { nin: right, firstName: 'Chinedu', lastName: 'Eze', phone: u.phone! });
    const slip = await upload(h, u.token);

    const res = await call(h, 'POST', fn('submitNinKyc'), { nin: wrong, slipPath: slip }, { token: u.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().submission.status).toBe('rejected');
    expect(res.json().submission.reason).toMatch(/could not match this NIN to your profile name and verified phone/);
    const st = await status(u.token);
    expect(st.tiers[1]).toEqual({ tier: 2, status: 'rejected', reason: res.json().submission.reason });
    const notes = await rows<{ body: string }>(
      h.app.services.db,
      sql`SELECT body FROM notifications WHERE user_id = ${u.id} AND kind = 'kyc_decision'`,
    );
    expect(notes.map((n) => n.body)).toContainEqual(expect.stringMatching(/Tier 2 .* not approved: We could not match this NIN/));

    // An unknown NIN answers the same way (test/security/nin-oracle.test.ts compares every case).
    const unknown = await call(h, 'POST', fn('submitNinKyc'), { nin: freshNin(), slipPath: slip }, { token: u.token });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().submission).toMatchObject({ status: 'rejected', reason: res.json().submission.reason });

    const ok = await call(h, 'POST', fn('submitNinKyc'), { nin: right, slipPath: slip, fullName: 'chinedu  EZE' }, { token: u.token });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().submission.status).toBe('pending');
    await review(ok.json().submission.id, 'reject', 'The NIN slip photo is unreadable');
    expect((await status(u.token)).tiers[1]).toEqual({ tier: 2, status: 'rejected', reason: 'The NIN slip photo is unreadable' });
    const audit = await rows<{ after_state: { status: string; reason: string } }>(
      h.app.services.db,
      sql`SELECT after_state FROM audit_log WHERE subject_id = ${ok.json().submission.id} AND action = 'adminReviewKyc'`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0].after_state).toEqual({ status: 'rejected', reason: 'The NIN slip photo is unreadable' });

    const third = await call(h, 'POST', fn('submitNinKyc'), { nin: right, slipPath: slip }, { token: u.token });
    expect(third.json().submission.status).toBe('pending');
    await review(third.json().submission.id, 'approve');
    expect((await status(u.token)).tier).toBe(2);

    // Spec 5.8: transfers need a Tier 2 record whose name matches the profile.
    await setUserFacts(h, u.id, { fullName: 'Someone Else' });
    await expect(h.app.services.kyc.assertTransferEligible(u.id)).rejects.toMatchObject({ code: 'KYC_TIER_REQUIRED' });
  });

  it('rejects a NIN whose phone is not the verified phone, and needs a verified phone and a name', async () => {
    const unverified = await kycUser(h, { verified: false });
    await setKycTier(h, unverified.id, 1);
    const slip = await upload(h, unverified.token);
    const r1 = await call(h, 'POST', fn('submitNinKyc'), { nin: freshNin(), slipPath: slip }, { token: unverified.token });
    expect(r1.statusCode).toBe(400);
    expect(r1.json().error.code).toBe('KYC_PROFILE_INCOMPLETE');

    const u = await kycUser(h, { fullName: 'Musa Bello' });
    await setKycTier(h, u.id, 1);
    const nin = freshNin();
    secrets.push(nin);
    await registerNin(h, { nin, firstName: 'Musa', lastName: 'Bello', phone: '08099999999' });
    const slip2 = await upload(h, u.token);
    const r2 = await call(h, 'POST', fn('submitNinKyc'), { nin, slipPath: slip2 }, { token: u.token });
    expect(r2.json().submission).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/could not match this NIN/) });
  });

  it('rejects a bank account whose name does not match the verified NIN name', async () => {
    const u = await kycUser(h, { fullName: 'Ngozi Okafor' });
    await setKycTier(h, u.id, 1);
    await approveTier2(h, u.id, 'Ngozi Okafor');
    const accountNumber = nuban('057');
    secrets.push(accountNumber);
    await registerAccount(h, { bankCode: '057', accountNumber, accountName: 'EMEKA OKAFOR' });
    const doc = await upload(h, u.token, 'pdf');
    const bad = await call(
      h,
      'POST',
      fn('submitBankKyc'),
      {
        bankCode: '057',
        accountNumber: accountNumber.slice(0, 9) + ((Number(accountNumber[9]) + 1) % 10),
        documentType: 'passport',
        documentPath: doc,
      },
      { token: u.token },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/NUBAN/);
    const res = await call(
      h,
      'POST',
      fn('submitBankKyc'),
      { bankCode: '057', accountNumber, documentType: 'drivers_licence', documentPath: doc },
      { token: u.token },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().submission).toMatchObject({
      tier: 3,
      status: 'rejected',
      reason: expect.stringMatching(/account name does not match/),
    });
  });
});

describe('review queue order', () => {
  it('lists newest first by default, oldest first or by tier when sort says so', async () => {
    const mine: string[] = [];
    const add = async (tier: number) => {
      const u = await signIn(h);
      h.clock.advance(60_000);
      await h.app.services.db.execute(sql`INSERT INTO kyc_submissions (id, user_id, tier, status, files, details, created_at, updated_at)
        VALUES (gen_random_uuid(), ${u.id}, ${tier}, 'pending', '[]'::jsonb, '{}'::jsonb, ${h.clock.now()}, ${h.clock.now()})`);
      mine.push(u.id);
      return u.id;
    };
    const a = await add(2);
    const b = await add(1);
    const c = await add(1);
    const order = async (sort?: string) => {
      const r = await call(h, 'GET', adm('adminListKycSubmissions'), { limit: 100, ...(sort ? { sort } : {}) }, { token: admin.token });
      expect(r.statusCode).toBe(200);
      return r
        .json()
        .items.map((i: { userId: string }) => i.userId)
        .filter((id: string) => mine.includes(id));
    };
    expect(await order()).toEqual([c, b, a]);
    expect(await order('oldest')).toEqual([a, b, c]);
    expect(await order('tier')).toEqual([b, c, a]);
    const bad = await call(h, 'GET', adm('adminListKycSubmissions'), { sort: 'tier DESC' }, { token: admin.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('Sort must be newest, oldest or tier');
  });
});

describe('look-ups', () => {
  it('lookupNin (Tier 1) answers one match flag without the holder data; verifyBankAccount names the account', async () => {
    const u = await kycUser(h, { fullName: 'Tunde Bakare' });
    const nin = freshNin();
    secrets.push(nin);
    await registerNin(h, { nin, firstName: 'Tunde', lastName: 'Bakare', phone: u.phone! });
    expect((await call(h, 'POST', fn('lookupNin'), { nin }, { token: u.token })).json().error.code).toBe('KYC_TIER_REQUIRED');
    await setKycTier(h, u.id, 1);
    const found = await call(h, 'POST', fn('lookupNin'), { nin }, { token: u.token });
    expect(found.json()).toEqual({ ok: true, matchesProfile: true });
    const missing = await call(h, 'POST', fn('lookupNin'), { nin: freshNin() }, { token: u.token });
    expect(missing.json()).toEqual({ ok: true, matchesProfile: false });
    expect((await call(h, 'POST', '/api/v1/lookupNin', { nin }, { token: u.token })).statusCode).toBe(404);

    const accountNumber = nuban('033');
    secrets.push(accountNumber);
    await registerAccount(h, { bankCode: '033', accountNumber, accountName: 'BAKARE TUNDE' });
    const acct = await call(h, 'POST', fn('verifyBankAccount'), { accountNumber, bankCode: '033' }, { token: u.token });
    expect(acct.json()).toEqual({ ok: true, accountName: 'BAKARE TUNDE', bankCode: '033', bankName: 'United Bank for Africa' });
    const other = nuban('033');
    const none = await call(h, 'POST', fn('verifyBankAccount'), { accountNumber: other, bankCode: '033' }, { token: u.token });
    expect(none.statusCode).toBe(400);
    const badBank = await call(h, 'POST', fn('verifyBankAccount'), { accountNumber, bankCode: '999' }, { token: u.token });
    expect(badBank.statusCode).toBe(400);
    const flippedCheck = other.slice(0, 9) + ((Number(other[9]) + 5) % 10);
    const sandboxBad = await h.app.inject({
      method: 'POST',
      url: '/sandbox/banks/accounts',
      payload: { bankCode: '033', accountNumber: flippedCheck, accountName: 'X' },
    });
    expect(sandboxBad.statusCode).toBe(400);
    expect(sandboxBad.json().error.message).toMatch(/NUBAN/);
  });
});

describe('signed file URLs', () => {
  let owner: TestUser;
  let path: string;
  beforeAll(async () => {
    owner = await signIn(h);
    path = await upload(h, owner.token, 'png');
  });

  const fileUrl = async (token: string, p: string) => call(h, 'POST', fn('getKycFileUrl'), { path: p }, { token });
  const get = (url: string) => h.app.inject({ method: 'GET', url: url.replace(h.config.publicUrl, '') });

  it('gives the owner a 5-minute URL that serves the bytes privately', async () => {
    const res = await fileUrl(owner.token, path);
    expect(res.statusCode).toBe(200);
    const { url, expiresAt } = res.json();
    expect(url.startsWith(`${h.config.publicUrl}/files/kyc/${path}?expires=`)).toBe(true);
    expect(new Date(expiresAt).getTime() - h.clock.now().getTime()).toBe(5 * 60 * 1000);
    const file = await get(url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.rawPayload.subarray(0, 8)).toEqual(FILE_BYTES.png().subarray(0, 8));
  });

  it("answers 404 for another user's path while an operator gets a URL", async () => {
    const stranger = await signIn(h);
    const res = await fileUrl(stranger.token, path);
    expect(res.statusCode).toBe(404);
    const unknown = await fileUrl(owner.token, 'A'.repeat(32) + '.png');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(res.json().error.message);
    const op = await fileUrl(admin.token, path);
    expect(op.statusCode).toBe(200);
    expect((await get(op.json().url)).statusCode).toBe(200);
    // Another user's upload cannot be attached to a submission either.
    const frames = await call(
      h,
      'POST',
      fn('submitTier3Kyc'),
      { frames: [path, await upload(h, stranger.token), await upload(h, stranger.token)] },
      { token: stranger.token },
    );
    expect(frames.statusCode).toBe(404);
  });

  it('refuses tampered and expired URLs with 403', async () => {
    const { url } = (await fileUrl(owner.token, path)).json();
    const u = new URL(url);
    const sig = u.searchParams.get('sig')!;
    const flipped = (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1);
    const cases = [
      url.replace(`sig=${sig}`, `sig=${flipped}`),
      url.replace(/expires=(\d+)/, (_m: string, e: string) => `expires=${Number(e) + 3600}`),
      url.replace(/&sig=.*$/, ''),
      url.replace(path, await upload(h, owner.token)),
    ];
    for (const c of cases) {
      const res = await get(c);
      expect(res.statusCode, c).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
    h.clock.advance(5 * 60 * 1000 + 1000);
    const expired = await get(url);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error.message).toMatch(/expired/);
  });

  it('refuses ../ and absolute paths', async () => {
    for (const p of ['../../etc/passwd', '/etc/passwd', `../${path}`, `kyc/${owner.id}/${path}`, `${path}/..`, 'C:\\windows\\win.ini']) {
      const res = await fileUrl(owner.token, p);
      expect(res.statusCode, p).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
    }
    for (const raw of [
      '/files/kyc/..%2F..%2Fetc%2Fpasswd?expires=9999999999&sig=00',
      '/files/kyc/../../etc/passwd',
      '/files/kyc/%2Fetc%2Fpasswd?expires=1&sig=1',
    ]) {
      const res = await h.app.inject({ method: 'GET', url: raw });
      expect([403, 404], raw).toContain(res.statusCode);
      expect(res.body).not.toMatch(/root:/);
    }
  });
});

describe('races', () => {
  it('parallel submissions of a tier leave one pending; parallel reviews decide once', async () => {
    const u = await kycUser(h, { fullName: null });
    await livenessOutcome(h, u.email, 'review');
    const frames = [await upload(h, u.token), await upload(h, u.token), await upload(h, u.token)];
    const subs = await Promise.all(Array.from({ length: 5 }, () => call(h, 'POST', fn('submitTier3Kyc'), { frames }, { token: u.token })));
    expect(subs.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    const id = await pendingId(u.id, 1);
    const reviews = await Promise.all([
      call(h, 'POST', adm('adminReviewKyc'), { submissionId: id, decision: 'approve' }, { token: admin.token }),
      call(h, 'POST', adm('adminReviewKyc'), { submissionId: id, decision: 'reject', reason: 'blurred frames' }, { token: admin.token }),
      call(h, 'POST', adm('adminReviewKyc'), { submissionId: id, decision: 'approve' }, { token: admin.token }),
    ]);
    expect(reviews.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    // One row per call (http/admin-audit.ts); the one decision is the one ok outcome.
    const audits = await rows<{ outcome: string }>(h.app.services.db, sql`SELECT outcome FROM audit_log WHERE subject_id = ${id}`);
    expect(audits.map((a) => a.outcome).sort()).toEqual(['CONFLICT', 'CONFLICT', 'ok']);
  });

  it('fills an empty profile name from fullName only with the submission', async () => {
    const u = await kycUser(h, { fullName: null });
    await setKycTier(h, u.id, 1);
    const nin = freshNin();
    secrets.push(nin);
    await registerNin(h, { nin, firstName: 'Halima', lastName: 'Yusuf', phone: u.phone! });
    const slip = await upload(h, u.token);
    const noName = await call(h, 'POST', fn('submitNinKyc'), { nin, slipPath: slip }, { token: u.token });
    expect(noName.json().error.code).toBe('KYC_PROFILE_INCOMPLETE');
    const res = await call(h, 'POST', fn('submitNinKyc'), { nin, slipPath: slip, fullName: 'Halima Yusuf' }, { token: u.token });
    expect(res.json().submission.status).toBe('pending');
    const r = await rows<{ full_name: string }>(h.app.services.db, sql`SELECT full_name FROM users WHERE id = ${u.id}`);
    expect(r[0].full_name).toBe('Halima Yusuf');
  });
});

describe('secrecy', () => {
  it('never puts a NIN or account number in a response or a log line', () => {
    expect(secrets.length).toBeGreaterThan(5);
    const logs = h.logs.join('\n');
    const responses = bodies.join('\n');
    for (const s of secrets) {
      expect(logs.includes(s), `log contains ${s}`).toBe(false);
      expect(responses.includes(s), `response contains ${s}`).toBe(false);
    }
  });

  it('stores provider payloads encrypted at rest', async () => {
    const r = await rows<{ payload_encrypted: string | null; details: unknown }>(
      h.app.services.db,
      sql`SELECT payload_encrypted, details FROM kyc_submissions WHERE tier > 1 AND payload_encrypted IS NOT NULL`,
    );
    expect(r.length).toBeGreaterThan(2);
    const stored = JSON.stringify(r);
    for (const s of secrets) expect(stored.includes(s)).toBe(false);
  });
});
