import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { call, createHarness, emailGrant, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { setKycTier, setUserFacts, tier2User, user } from '../helpers/factories.js';
import { statementsOfEither } from '../helpers/statements.js';

/**
 * Issue #28: public and low-tier answers must not tell which accounts exist or who holds them. resolveLoginIdentifier
 * and login-failed answer the same, after the same work, for a real account and for none; lookupProfileByUsername
 * shows a full name only to a caller of the tier that may transfer.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const S = (name: string, suffix = 'PublicAuth') => `/_serverFn/${name}${suffix}`;
const ip = () => `10.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(1, 250)}`;
let seq = 0;
const uname = (p: string) => `${p}${Date.now().toString(36).slice(-5)}${seq++}`;

/** An account with a username and, optionally, a login PIN. */
async function account(withPin: boolean): Promise<TestUser & { username: string }> {
  const username = uname('en');
  const u = await user(h, { username, fullName: 'Ada Obi' });
  if (withPin) {
    const set = await call(
      h,
      'POST',
      S('setLoginPin', 'BearerAuth'),
      { pin: '730481' },
      { token: u.token, headers: await emailGrant(h, u) },
    );
    expect(set.statusCode).toBe(200);
  }
  return { ...u, username };
}

describe('resolveLoginIdentifier', () => {
  it('answers the same for an account with a login PIN, without one, a closed one and none, and looks nothing up', async () => {
    const withPin = await account(true);
    const withoutPin = await account(false);
    const closed = await account(true);
    await setUserFacts(h, closed.id, { status: 'closed' });
    const resolve = (identifier: string) =>
      h.app.inject({ method: 'POST', url: S('resolveLoginIdentifier'), payload: { data: { identifier } }, remoteAddress: ip() });

    for (const [form, ids] of [
      ['username', [`@${withPin.username}`, `@${withoutPin.username}`, `@${closed.username}`, `@${uname('nobody')}`]],
      ['email', [withPin.email, withoutPin.email, closed.email, `nobody-${uname('x')}@example.com`]],
    ] as const) {
      const answers = [];
      for (const id of ids) answers.push(await resolve(id));
      for (const a of answers) {
        expect(a.statusCode).toBe(200);
        expect(a.body).toBe(answers[0].body);
      }
      expect(answers[0].json()).toEqual({ ok: true, identifierType: form, pinLoginAvailable: true });
    }
    // Nothing about accounts is read, so the time cannot tell them apart either.
    const texts = await statementsOfEither(() => resolve(withPin.email));
    expect(texts.filter((t) => /\busers\b|user_pins/.test(t))).toEqual([]);

    // Offering PIN login to an unknown identifier costs nothing: it fails exactly like a wrong PIN.
    const wrong = await call(h, 'POST', S('startPinLogin'), { identifier: withPin.email, pin: '111111' });
    const none = await call(h, 'POST', S('startPinLogin'), { identifier: `nobody-${uname('y')}@example.com`, pin: '111111' });
    expect(none.statusCode).toBe(wrong.statusCode);
    expect(none.json().error.code).toBe(wrong.json().error.code);
  });
});

describe('login-failed', () => {
  it('does the same statements for a real account and for none, and the owner is still alerted afterwards', async () => {
    const real = await account(true);
    const report = (identifier: string) =>
      h.app.inject({ method: 'POST', url: '/api/public/login-failed', payload: { identifier, method: 'pin' }, remoteAddress: ip() });
    // Warm both paths once (statement preparation, caches), then record the work of one report each.
    await report(real.email);
    await report(`nobody-${uname('w')}@example.com`);
    let realAnswer: Awaited<ReturnType<typeof report>> | undefined;
    let noneAnswer: Awaited<ReturnType<typeof report>> | undefined;
    const forReal = await statementsOfEither(async () => (realAnswer = await report(real.email)));
    const forNone = await statementsOfEither(async () => (noneAnswer = await report(`nobody-${uname('z')}@example.com`)));
    expect(forReal.length).toBeGreaterThan(0);
    expect(forNone).toEqual(forReal);
    expect(noneAnswer!.statusCode).toBe(200);
    expect(noneAnswer!.body).toBe(realAnswer!.body);

    // The alert is decided by the job the report enqueued: five failures in the window e-mail the owner once.
    for (let i = 0; i < 3; i++) await report(real.email);
    await h.app.services.jobs.drain();
    const box = (await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(real.email)}` })).json().items as {
      subject: string;
    }[];
    expect(box.filter((m) => m.subject.includes('Failed sign-in'))).toHaveLength(1);
  });
});

describe('lookupProfileByUsername', () => {
  it('shows the full name only to a caller of the tier that may transfer; others see it masked', async () => {
    const target = await account(false);
    await setUserFacts(h, target.id, { fullName: 'Ada Grace Obi' });
    const look = (caller: TestUser) =>
      call(h, 'POST', S('lookupProfileByUsername', 'BearerWallet'), { username: `@${target.username}` }, { token: caller.token });

    const fresh = await signIn(h);
    const tier1 = await user(h);
    await setKycTier(h, tier1.id, 1);
    for (const caller of [fresh, tier1]) {
      const r = await look(caller);
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ ok: true, username: target.username, fullName: 'A*** G*** O***' });
    }
    const sender = await tier2User(h, { fullName: 'Bola Ahmed' });
    expect((await look(sender)).json()).toEqual({ ok: true, username: target.username, fullName: 'Ada Grace Obi' });
  });
});
