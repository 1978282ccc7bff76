import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminDeclarationProblem, authOf, type AnyOperation } from '../../src/platform/operation.js';
import { allOperations } from '../../src/modules/index.js';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { user } from '../helpers/factories.js';
import { enrollTotp, grantFor } from './rfc6238.js';

// Issue 41: a stolen operator access token alone changes no authority. Every admin write declares step-up or a
// reasoned exemption (the registry refuses to start otherwise), and changes of roles, second factors and four-eyes
// thresholds are e-mailed to every admin at once.

/** Admin operations that change who may do what or how money is checked: each must ask for step-up. */
const AUTHORITY = [
  'adminGrantRole',
  'adminRevokeRole',
  'adminResetTwoFactor',
  'adminRevokeOperatorSession',
  'adminPasskeyRegisterOptions',
  'adminPasskeyRegister',
  'adminDeletePasskey',
  'adminUpdateApprovalSettings',
  'adminUpdateGrowthSettings',
  'adminSetMarkup',
  'adminFreezeCustomer',
  'adminUnfreezeCustomer',
  'adminSignOutCustomer',
  'adminAdjustWallet',
  'adminCorrectSettlement',
  'adminResolveVtuTransaction',
  'adminApproveRequest',
  'adminRejectRequest',
  'adminFundProviderFloat',
];
/** ...and these are announced to every admin. */
const ANNOUNCED = ['adminGrantRole', 'adminRevokeRole', 'adminResetTwoFactor', 'adminUpdateApprovalSettings'];

const byName = new Map(allOperations.map((o) => [o.name, o]));
const adminWrites = allOperations.filter((o) => authOf(o) === 'admin' && o.method === 'POST');

describe('the registry walk: every admin write declares step-up or a reasoned exemption', () => {
  it('passes the start-up check for every operation', () => {
    expect(allOperations.map(adminDeclarationProblem).filter(Boolean)).toEqual([]);
    expect(adminWrites.length).toBeGreaterThan(30);
    for (const op of adminWrites)
      expect(Boolean(op.gates?.stepUp || op.gates?.reauth) || (op.stepUpExempt?.length ?? 0) >= 20, op.name).toBe(true);
  });

  it('gates every operation that changes authority or moves money, and announces role, factor and threshold changes', () => {
    for (const name of AUTHORITY) {
      const op = byName.get(name);
      expect(op, name).toBeDefined();
      expect(Boolean(op!.gates?.stepUp || op!.gates?.reauth), name).toBe(true);
    }
    for (const name of ANNOUNCED) expect(byName.get(name)!.announce, name).toBe(true);
  });

  it('refuses a declaration without either, with a word for a reason, or with both', () => {
    const base = adminWrites.find((o) => o.name === 'adminGrantRole')!;
    const bare = { ...base, gates: {}, stepUpExempt: undefined } as AnyOperation;
    expect(adminDeclarationProblem(bare)).toMatch(/adminGrantRole: an admin write must declare gates.stepUp/);
    expect(adminDeclarationProblem({ ...bare, stepUpExempt: 'harmless' })).toMatch(/must declare/);
    expect(adminDeclarationProblem({ ...base, stepUpExempt: 'a reason long enough to be one' })).toMatch(/and an exemption/);
    expect(adminDeclarationProblem({ ...bare, stepUpExempt: 'a reason long enough to be one' })).toBeNull();
    // A customer operation declares neither.
    const customer = allOperations.find((o) => authOf(o) === 'user')!;
    expect(adminDeclarationProblem({ ...customer, stepUpExempt: 'a reason long enough to be one' })).toMatch(/only BearerAdmin/);
  });
});

describe('a stolen operator token (OPERATOR_2FA=required)', () => {
  let h: Harness;
  let admin: TestUser;
  let second: TestUser;
  let secret: string;
  const post = (name: string, data: Record<string, unknown>, who: TestUser, grant?: string) =>
    call(h, 'POST', `/_serverFn/${name}BearerAdmin`, data, { token: who.token, headers: grant ? { 'x-grant-token': grant } : {} });
  const mailTo = async (to: string) => {
    await h.app.services.jobs.drain();
    const box = await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(to)}` });
    return box.json().items as { subject: string; text: string }[];
  };

  beforeAll(async () => {
    h = await createHarness({ env: { OPERATOR_2FA: 'required', ADMIN_EMAILS: 'admin@example.com,second@example.com' } });
    admin = await signIn(h, 'admin@example.com');
    second = await signIn(h, 'second@example.com');
    secret = await enrollTotp(h, admin);
    await enrollTotp(h, second);
  });
  afterAll(async () => h.close());

  it('cannot grant a role, reset a factor, end a session or weaken four-eyes without a step-up grant', async () => {
    const outsider = await signIn(h, 'outsider@example.com');
    const refused = [
      await post('adminGrantRole', { email: outsider.email, role: 'admin' }, admin),
      await post('adminResetTwoFactor', { userId: second.id, reason: 'lost their phone, checked by call' }, admin),
      await post('adminRevokeOperatorSession', { sessionId: second.sessionId }, admin),
      await post('adminUpdateApprovalSettings', { walletAdjustment: 10_000_000 }, admin),
      await post('adminFreezeCustomer', { userId: (await user(h)).id, reason: 'suspicious funding pattern' }, admin),
    ];
    for (const r of refused) expect(r.json().error?.code, r.body).toBe('STEP_UP_REQUIRED');
    const roles = (await call(h, 'GET', '/_serverFn/adminListOperatorsBearerAdmin', {}, { token: admin.token })).json().items;
    expect(roles.find((o: { email: string }) => o.email === outsider.email)).toBeUndefined();
  });

  it('with the grant, a role change takes effect and every admin is e-mailed at once', async () => {
    const newcomer = await signIn(h, 'newcomer@example.com');
    const before = (await mailTo(second.email)).length;
    const ok = await post('adminGrantRole', { email: newcomer.email, role: 'finance' }, admin, await grantFor(h, admin, secret));
    expect(ok.statusCode, ok.body).toBe(200);
    for (const to of [admin.email, second.email]) {
      const mail = (await mailTo(to)).find((m) => m.subject.includes('adminGrantRole'));
      expect(mail, to).toBeDefined();
      expect(mail!.subject).toContain(admin.email);
      expect(mail!.text).toContain('finance');
    }
    expect((await mailTo(second.email)).length).toBe(before + 1);
    // A refused change is not announced: the e-mail is part of the change's own transaction.
    const again = await post('adminRevokeRole', { userId: newcomer.id, role: 'support' }, admin, await grantFor(h, admin, secret));
    expect(again.statusCode).toBe(404);
    expect((await mailTo(second.email)).filter((m) => m.subject.includes('adminRevokeRole'))).toHaveLength(0);
  });
});
