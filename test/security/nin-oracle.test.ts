import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DAY } from '../../src/kernel/clock.js';
import { call, createHarness, emailGrant, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { setKycTier } from '../helpers/factories.js';
import { freshNin, freshPhone, kycUser, registerNin, upload } from '../kyc/factories.js';

/**
 * LookupNin was a free NIN oracle. A Tier 0 account (free to make) learned whether any
 * 11-digit NIN exists and, with its own profile name set to a guess, whether the holder's name matched. Now it needs
 * Tier 1, a user has a few look-ups a day (renaming the profile buys none), and the one answer, "matches your
 * profile", is the same for an unknown NIN and for someone else's.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const lookupNin = (u: TestUser, nin: string) => call(h, 'POST', '/_serverFn/lookupNinBearerKYC', { nin }, { token: u.token });
/** Renaming needs a step-up grant (issue #28): the owner's, asked for once. */
const grants = new Map<string, Record<string, string>>();
async function rename(u: TestUser, fullName: string) {
  if (!grants.has(u.id)) grants.set(u.id, await emailGrant(h, u));
  return call(h, 'POST', '/_serverFn/updateProfileBearerSettings', { fullName }, { token: u.token, headers: grants.get(u.id) });
}

async function tier1(fullName = 'Tunde Bakare') {
  const u = await kycUser(h, { fullName });
  await setKycTier(h, u.id, 1);
  return u;
}

describe('NIN oracle (lookupNin)', () => {
  it('a Tier 0 account is refused with KYC_TIER_REQUIRED and no look-up is made', async () => {
    const nin = freshNin();
    await registerNin(h, { nin, firstName: 'Chioma', lastName: 'Eze', phone: freshPhone() });
    const u = await kycUser(h, { fullName: 'Chioma Eze' });
    const res = await lookupNin(u, nin);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('KYC_TIER_REQUIRED');
    expect(res.body).not.toMatch(/found|match/i);
  });

  it('20 parallel look-ups: exactly the daily quota passes, the rest are RATE_LIMITED with a Retry-After', async () => {
    const u = await tier1();
    const res = await Promise.all(Array.from({ length: 20 }, () => lookupNin(u, freshNin())));
    expect(res.filter((r) => r.statusCode === 200)).toHaveLength(5);
    const refused = res.filter((r) => r.statusCode !== 200);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.statusCode).toBe(429);
      expect(r.json().error.code).toBe('RATE_LIMITED');
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('renaming the profile buys no look-ups; the quota comes back the next Lagos day', async () => {
    const u = await tier1('Ada Obi');
    for (let i = 0; i < 5; i++) {
      expect((await rename(u, `Guess Number${String.fromCharCode(97 + i)}`)).statusCode).toBe(200);
      expect((await lookupNin(u, freshNin())).statusCode).toBe(200);
    }
    expect((await rename(u, 'Another Guess')).statusCode).toBe(200);
    const over = await lookupNin(u, freshNin());
    expect(over.statusCode).toBe(429);
    const wait = Number(over.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(DAY / 1000);
    h.clock.advance(wait * 1000);
    const again = await signIn(h, u.email); // access tokens live 15 minutes
    expect((await lookupNin(again, freshNin())).statusCode).toBe(200);
  });

  it('submitNinKyc asks the provider too, so it shares the quota', async () => {
    const u = await tier1('Ada Obi');
    for (let i = 0; i < 5; i++) expect((await lookupNin(u, freshNin())).statusCode).toBe(200);
    const slipPath = await upload(h, u.token, 'pdf');
    const submit = await call(h, 'POST', '/_serverFn/submitNinKycBearerKYC', { nin: freshNin(), slipPath }, { token: u.token });
    expect(submit.statusCode).toBe(429);
    expect(submit.json().error.code).toBe('RATE_LIMITED');
  });

  it('the answer does not separate "NIN unknown" from "name differs" (nor "phone differs")', async () => {
    const u = await tier1('Tunde Bakare');
    const someoneElse = freshNin();
    await registerNin(h, { nin: someoneElse, firstName: 'Ngozi', lastName: 'Okafor', phone: freshPhone() });
    const samePhoneOtherName = freshNin();
    await registerNin(h, { nin: samePhoneOtherName, firstName: 'Ngozi', lastName: 'Okafor', phone: u.phone! });
    const sameNameOtherPhone = freshNin();
    await registerNin(h, { nin: sameNameOtherPhone, firstName: 'Tunde', lastName: 'Bakare', phone: freshPhone() });
    const own = freshNin();
    await registerNin(h, { nin: own, firstName: 'Tunde', lastName: 'Bakare', phone: u.phone! });

    const unknown = await lookupNin(u, freshNin());
    expect(unknown.statusCode).toBe(200);
    for (const nin of [someoneElse, samePhoneOtherName, sameNameOtherPhone]) {
      const r = await lookupNin(u, nin);
      expect(r.statusCode).toBe(200);
      expect(r.body).toBe(unknown.body);
    }
    expect(unknown.json()).toEqual({ ok: true, matchesProfile: false });
    // The caller's own NIN (its name and the caller's verified phone) still says so: what the Tier 2 flow needs.
    expect((await lookupNin(u, own)).json()).toEqual({ ok: true, matchesProfile: true });
    const counted = (await h.app.services.db.execute(
      sql`SELECT sum(used)::int AS n FROM kyc_nin_lookups WHERE user_id = ${u.id}`,
    )) as unknown as { rows: { n: number }[] };
    expect(counted.rows[0].n).toBe(5);
  });
});

describe('NIN oracle (submitNinKyc)', () => {
  const submit = (u: TestUser, nin: string, slipPath: string) =>
    call(h, 'POST', '/_serverFn/submitNinKycBearerKYC', { nin, slipPath }, { token: u.token });

  it('every failed check answers the same (code, status, reason); the operator sees which check failed', async () => {
    // Someone else holds a NIN in the name "Tunde Bakare" on their own phone, with a submission under review.
    const holder = await tier1('Tunde Bakare');
    const held = freshNin();
    await registerNin(h, { nin: held, firstName: 'Tunde', lastName: 'Bakare', phone: holder.phone! });
    const heldRes = await submit(holder, held, await upload(h, holder.token, 'pdf'));
    expect(heldRes.json().submission.status).toBe('pending');

    // The prober has the same name and (numbers are recycled) the same verified phone.
    const prober = await kycUser(h, { fullName: 'Tunde Bakare', phone: holder.phone });
    await setKycTier(h, prober.id, 1);
    const otherName = freshNin();
    await registerNin(h, { nin: otherName, firstName: 'Ngozi', lastName: 'Okafor', phone: prober.phone! });
    const otherPhone = freshNin();
    await registerNin(h, { nin: otherPhone, firstName: 'Tunde', lastName: 'Bakare', phone: freshPhone() });
    const otherPerson = freshNin();
    await registerNin(h, { nin: otherPerson, firstName: 'Ngozi', lastName: 'Okafor', phone: freshPhone() });
    const cases = {
      nin_not_found: freshNin(),
      name_mismatch: otherName,
      phone_mismatch: otherPhone,
      'name_mismatch,phone_mismatch': otherPerson,
      nin_linked_elsewhere: held,
    };
    const slip = await upload(h, prober.token, 'pdf');
    const answers: { status: number; body: { submission: Record<string, unknown> } & Record<string, unknown>; id: string }[] = [];
    for (const nin of Object.values(cases)) {
      const r = await submit(prober, nin, slip);
      const body = r.json();
      answers.push({ status: r.statusCode, body, id: body.submission?.id });
    }
    // Only the submission's own id and time differ.
    const comparable = answers.map((a) => ({
      status: a.status,
      body: { ...a.body, submission: { ...a.body.submission, id: undefined, createdAt: undefined } },
    }));
    for (const c of comparable) expect(c).toEqual(comparable[0]);
    expect(comparable[0].status).toBe(200);
    expect(comparable[0].body.submission).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/could not match this NIN/) });
    expect(JSON.stringify(answers)).not.toMatch(/not found|linked|another account|phone number on|name on the NIN/i);

    // The operator reads the precise reason: on the submission and in the audit row.
    const admin = await signIn(h, 'admin@example.com');
    for (const [i, expected] of Object.keys(cases).entries()) {
      const view = await call(
        h,
        'GET',
        '/_serverFn/adminGetKycSubmissionBearerAdmin',
        { submissionId: answers[i].id },
        { token: admin.token },
      );
      expect(view.statusCode).toBe(200);
      expect(view.json().submission.details.failedChecks.join(','), expected).toBe(expected);
      const audit = (await h.app.services.db.execute(
        sql`SELECT details FROM audit_log WHERE subject_id = ${answers[i].id} AND action = 'kyc.auto_reject'`,
      )) as unknown as { rows: { details: { operatorReason: string } }[] };
      expect(audit.rows[0].details.operatorReason, expected).toMatch(
        { nin_not_found: /no NIN record/, name_mismatch: /name on the NIN record/, phone_mismatch: /phone number on the NIN record/ }[
          expected.split(',')[0] as 'nin_not_found'
        ] ?? /already linked to another account/,
      );
    }
  });
});
