import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { PIN, user } from '../helpers/factories.js';
import { LIVENESS_FAILS_BEFORE_REVIEW } from '../../src/modules/kyc/rules.js';
import { livenessOutcome, upload } from './factories.js';

/**
 * Tier 1 in seconds (issue 29): the selfie is checked by the identity provider's liveness check (the sandbox's
 * simulator, driven by its magic outcomes). Pass: Tier 1 at once; fail: refused with advice; unsure, low score,
 * down or slow: an operator decides.
 */
let h: Harness;
let admin: TestUser;
beforeAll(async () => {
  h = await createHarness();
  admin = await signIn(h, 'admin@example.com');
});
afterAll(async () => h?.close());

const fn = (name: string) => `/_serverFn/${name}BearerKYC`;
const adm = (name: string) => `/_serverFn/${name}BearerAdmin`;

const framesOf = async (u: TestUser) => [await upload(h, u.token), await upload(h, u.token, 'png'), await upload(h, u.token)];
async function selfie(u: TestUser, frames?: string[]) {
  frames ??= await framesOf(u);
  const res = await call(h, 'POST', fn('submitTier3Kyc'), { frames }, { token: u.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().submission as { id: string; status: string; reason?: string; reviewedAt?: string };
}
const status = async (u: TestUser) => (await call(h, 'GET', fn('getKycStatus'), undefined, { token: u.token })).json();
const buyAirtime = (u: TestUser) =>
  call(h, 'POST', '/api/v1/buyAirtime', { network: 'mtn', phone: '08031234567', amount: 200, pin: PIN }, { token: u.token });
const adminView = async (id: string) =>
  (await call(h, 'GET', adm('adminGetKycSubmission'), { submissionId: id }, { token: admin.token })).json().submission;

describe('liveness check', () => {
  it('pass (the sandbox default): Tier 1 at once, with the approval effects, and a purchase succeeds right after', async () => {
    const approved: { userId: string; tier: number }[] = [];
    h.app.services.events.on('kyc.approved', (e) => (approved.push(e), null));
    const u = await user(h, { pin: PIN, naira: 5000 });
    // Before: the purchase is refused for the tier, and the status read says what to do, before any PIN.
    const before = await status(u);
    expect(before.access.purchases).toMatchObject({ allowed: false, requiredTier: 1, next: 'submitLiveness' });
    expect(before.access.purchases.message).toMatch(/Purchases need Tier 1: take a selfie/);
    expect((await buyAirtime(u)).json().error.code).toBe('KYC_TIER_REQUIRED');

    const s = await selfie(u);
    expect(s).toMatchObject({ tier: 1, status: 'approved' });
    expect(s.reviewedAt).toBeDefined();
    const after = await status(u);
    expect(after.tier).toBe(1);
    expect(after.tiers[0]).toEqual({ tier: 1, status: 'approved' });
    expect(after.access.purchases).toEqual({ allowed: true, requiredTier: 1 });
    expect(after.access.transfers).toMatchObject({ allowed: false, next: 'submitNin' });

    // The same request path that refused a moment ago now buys (the cached tier was forgotten).
    const bought = await buyAirtime(u);
    expect(bought.statusCode, bought.body).toBe(200);

    expect(approved.filter((e) => e.userId === u.id)).toEqual([{ userId: u.id, tier: 1 }]);
    const audit = await rows<{ action: string; actor_id: string | null }>(
      h.app.services.db,
      sql`SELECT action, actor_id FROM audit_log WHERE subject_id = ${s.id}`,
    );
    expect(audit).toEqual([{ action: 'kyc.auto_approve', actor_id: null }]);
    const notes = await rows<{ title: string }>(
      h.app.services.db,
      sql`SELECT title FROM notifications WHERE user_id = ${u.id} AND kind = 'kyc_decision'`,
    );
    expect(notes.map((n) => n.title)).toEqual(['KYC Tier 1 (face liveness) approved']);
    // The operator still sees the frames and the provider's answer; there is nothing to review.
    const view = await adminView(s.id);
    expect(view.details.liveness).toMatchObject({ outcome: 'pass', score: 0.97 });
    expect(view.files).toHaveLength(3);
    expect((await call(h, 'POST', fn('submitTier3Kyc'), { frames: [] }, { token: u.token })).statusCode).toBe(400);
  });

  it('fail: refused with what to do differently, notified; a new selfie can pass', async () => {
    const u = await user(h);
    await livenessOutcome(h, u.email, 'fail', { reason: 'poor_quality' });
    const s = await selfie(u);
    expect(s.status).toBe('rejected');
    expect(s.reason).toMatch(/too dark or blurred.*try again/);
    const st = await status(u);
    expect(st.tier).toBe(0);
    expect(st.tiers[0]).toEqual({ tier: 1, status: 'rejected', reason: s.reason });
    expect(st.access.purchases).toMatchObject({ allowed: false, next: 'submitLiveness' });
    expect((await adminView(s.id)).details.liveness).toEqual({ outcome: 'fail', score: 0.08, reason: 'poor_quality' });

    await livenessOutcome(h, u.email, 'fail');
    expect((await selfie(u)).reason).toMatch(/live person/);
    await livenessOutcome(h, u.email, 'pass');
    expect((await selfie(u)).status).toBe('approved');
  });

  it('needs review: pending in the operator queue; the operator approves and the tier is raised', async () => {
    const u = await user(h, { pin: PIN, naira: 5000 });
    await livenessOutcome(h, u.email, 'review');
    const s = await selfie(u);
    expect(s.status).toBe('pending');
    const st = await status(u);
    expect(st.access.purchases).toMatchObject({ allowed: false, next: 'awaitReview' });
    const queue = await call(h, 'GET', adm('adminListKycSubmissions'), { tier: 1 }, { token: admin.token });
    expect(queue.json().items.map((i: { id: string }) => i.id)).toContain(s.id);
    expect((await adminView(s.id)).details.liveness).toEqual({ outcome: 'review', score: 0.62, review: 'provider' });

    const decided = await call(h, 'POST', adm('adminReviewKyc'), { submissionId: s.id, decision: 'approve' }, { token: admin.token });
    expect(decided.json().submission).toMatchObject({ status: 'approved' });
    expect((await status(u)).tier).toBe(1);
    expect((await buyAirtime(u)).statusCode).toBe(200);
  });

  it('a pass below the score threshold goes to an operator, who may reject it', async () => {
    const u = await user(h);
    await livenessOutcome(h, u.email, 'pass', { score: 0.7 });
    const s = await selfie(u);
    expect(s.status).toBe('pending');
    expect((await adminView(s.id)).details.liveness).toEqual({ outcome: 'pass', score: 0.7, review: 'low_score' });
    const decided = await call(
      h,
      'POST',
      adm('adminReviewKyc'),
      { submissionId: s.id, decision: 'reject', reason: 'face not visible' },
      { token: admin.token },
    );
    expect(decided.json().submission).toMatchObject({ status: 'rejected', reason: 'face not visible' });
    expect((await status(u)).tier).toBe(0);
  });

  it.each(['down', 'timeout'] as const)('provider %s: needs review, never a silent pass', async (outcome) => {
    const u = await user(h);
    await livenessOutcome(h, u.email, outcome);
    const s = await selfie(u);
    expect(s.status).toBe('pending');
    expect((await status(u)).tier).toBe(0);
    expect((await adminView(s.id)).details.liveness).toEqual({ outcome: 'unavailable', review: 'unavailable' });
  });

  it(`after ${LIVENESS_FAILS_BEFORE_REVIEW} failed checks in a day a pass meets an operator`, async () => {
    const u = await user(h);
    await livenessOutcome(h, u.email, 'fail', { reason: 'not_live' });
    const frames = await framesOf(u);
    for (let i = 0; i < LIVENESS_FAILS_BEFORE_REVIEW; i++) expect((await selfie(u, frames)).status).toBe('rejected');
    await livenessOutcome(h, u.email, 'pass');
    const s = await selfie(u, frames);
    expect(s.status).toBe('pending');
    expect((await adminView(s.id)).details.liveness).toMatchObject({ outcome: 'pass', review: 'repeated_fails' });
    // A day later the automatic check decides again.
    await call(
      h,
      'POST',
      adm('adminReviewKyc'),
      { submissionId: s.id, decision: 'reject', reason: 'try again tomorrow' },
      { token: admin.token },
    );
    h.clock.advance(24 * 3600_000 + 1000);
    const v = await user(h, { email: u.email });
    expect((await selfie(v)).status).toBe('approved');
  });

  it('the sandbox control validates its body', async () => {
    for (const payload of [
      {},
      { email: 'a@b.co', outcome: 'maybe' },
      { email: 'a@b.co', outcome: 'pass', score: 2 },
      { email: 'x', outcome: 'pass' },
    ]) {
      const res = await h.app.inject({ method: 'POST', url: '/sandbox/identity/liveness', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});
