import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';

/** Issue 44: an operator role given to an e-mail with no account yet is an invitation its first sign-in accepts. */
let h: Harness;
let boss: TestUser;
const op = (name: string) => `/_serverFn/${name}BearerAdmin`;
const fresh = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 8)}@example.com`;
beforeAll(async () => {
  h = await createHarness({ env: { OPERATOR_2FA: 'optional' } });
  boss = await signIn(h, 'admin@example.com');
});
afterAll(async () => h?.close());

const grant = (by: TestUser, email: string, role: string) => call(h, 'POST', op('adminGrantRole'), { email, role }, { token: by.token });
const pending = async (by: TestUser) => {
  const res = await call(h, 'GET', op('adminListInvitations'), undefined, { token: by.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as { id: string; email: string; role: string; invitedBy: string; expiresAt: string }[];
};
const roles = async (by: TestUser, email: string) =>
  (
    (await call(h, 'GET', op('adminListOperators'), undefined, { token: by.token })).json().items as { email: string; roles: string[] }[]
  ).find((o) => o.email === email)?.roles ?? [];
const mailbox = async (to: string) => {
  await h.app.services.jobs.drain();
  return (await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(to)}` })).json().items as {
    subject: string;
    text: string;
  }[];
};
const auditOf = async (operation: string, targetId: string) =>
  (await call(h, 'GET', op('adminSearchAudit'), { operation, targetId }, { token: boss.token })).json().items as {
    outcome: string | null;
  }[];

describe('operator invitations', () => {
  it('invites a new e-mail, e-mails it, and its first sign-in holds the role', async () => {
    const email = fresh('Invitee');
    const res = await grant(boss, email, 'finance');
    expect(res.statusCode, res.body).toBe(200);
    const invitation = res.json().invitation;
    expect(res.json().operator).toBeNull();
    expect(invitation).toMatchObject({ email: email.toLowerCase(), role: 'finance', invitedBy: 'admin@example.com' });
    const days = (Date.parse(invitation.expiresAt) - h.clock.now().getTime()) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);
    expect(await pending(boss)).toContainEqual(expect.objectContaining({ id: invitation.id, email: email.toLowerCase() }));
    const mail = await mailbox(email.toLowerCase());
    expect(mail.find((m) => /invited you to the operator console with the finance role/.test(m.text))).toBeTruthy();
    expect((await auditOf('adminGrantRole', invitation.id))[0]).toMatchObject({ outcome: 'ok' });

    const invitee = await signIn(h, email.toLowerCase());
    expect(await roles(boss, invitee.email)).toEqual(['finance']);
    // The role is the session's: a finance-only read answers, an admin-only one does not.
    expect((await call(h, 'GET', op('adminListInvitations'), undefined, { token: invitee.token })).statusCode).toBe(403);
    expect((await pending(boss)).map((i) => i.id)).not.toContain(invitation.id);
    const row = await h.app.services.db.execute(
      sql`SELECT status, accepted_user_id::text AS u FROM operator_invitations WHERE id = ${invitation.id}`,
    );
    expect((row as unknown as { rows: { status: string; u: string }[] }).rows[0]).toEqual({ status: 'accepted', u: invitee.id });
  });

  it('an expired invitation grants nothing, and a new one can then be sent', async () => {
    const email = fresh('late');
    const first = (await grant(boss, email, 'support')).json().invitation;
    h.clock.advance(7 * 86_400_000 + 1000);
    // Sessions end too in a week: the admin signs in again.
    boss = await signIn(h, 'admin@example.com');
    expect((await pending(boss)).map((i) => i.id)).not.toContain(first.id);
    expect((await call(h, 'POST', op('adminRevokeInvitation'), { id: first.id }, { token: boss.token })).statusCode).toBe(404);
    const late = await signIn(h, email);
    expect(await roles(boss, late.email)).toEqual([]);
    // The account exists now: a grant is a grant, not an invitation.
    const again = (await grant(boss, email, 'support')).json();
    expect(again).toMatchObject({ invitation: null, operator: { email, roles: ['support'] } });
  });

  it('refuses a duplicate pending invitation (409), bad input (400), and anyone but an admin (403)', async () => {
    const email = fresh('twice');
    expect((await grant(boss, email, 'support')).statusCode).toBe(200);
    const dup = await grant(boss, email.toUpperCase(), 'support');
    expect(dup.statusCode, dup.body).toBe(409);
    expect(dup.json().error.message).toMatch(/already has a pending invitation/);
    expect((await grant(boss, email, 'finance')).statusCode).toBe(200);
    const bad = await grant(boss, 'not-an-email', 'support');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/valid e-mail/);
    const badRole = await grant(boss, fresh('role'), 'owner');
    expect(badRole.statusCode).toBe(400);
    expect(badRole.body).toMatch(/role must be one of admin, finance, support/i);
    expect((await call(h, 'POST', op('adminRevokeInvitation'), { id: 'nope' }, { token: boss.token })).statusCode).toBe(400);

    const support = await signIn(h);
    expect((await grant(boss, support.email, 'support')).statusCode).toBe(200);
    // The session carries the new role on its next request (the grant drops the cached session).
    const refreshed = support;
    expect(await roles(boss, support.email)).toEqual(['support']);
    const other = fresh('by-support');
    expect((await grant(refreshed, other, 'admin')).statusCode).toBe(403);
    expect((await call(h, 'GET', op('adminListInvitations'), undefined, { token: refreshed.token })).statusCode).toBe(403);
    expect((await pending(boss)).map((i) => i.email)).not.toContain(other);
  });

  it('a revoked invitation grants nothing; revoking is audited and happens once', async () => {
    const email = fresh('revoked');
    const invitation = (await grant(boss, email, 'admin')).json().invitation;
    const res = await call(h, 'POST', op('adminRevokeInvitation'), { id: invitation.id }, { token: boss.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().invitation).toMatchObject({ id: invitation.id, email, role: 'admin' });
    expect((await call(h, 'POST', op('adminRevokeInvitation'), { id: invitation.id }, { token: boss.token })).statusCode).toBe(404);
    expect((await pending(boss)).map((i) => i.id)).not.toContain(invitation.id);
    expect((await auditOf('adminRevokeInvitation', invitation.id)).map((a) => a.outcome).sort()).toEqual(['NOT_FOUND', 'ok']);
    const person = await signIn(h, email);
    expect(await roles(boss, person.email)).toEqual([]);
  });
});
