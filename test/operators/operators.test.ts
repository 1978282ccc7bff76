import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, grantRoles, signIn, type Harness, type TestUser } from '../helpers/harness.js';

/** Issue 30: granting and revoking operator roles, and searching the audit trail. */
let h: Harness;
let boss: TestUser;
const op = (name: string) => `/_serverFn/${name}BearerAdmin`;
beforeAll(async () => {
  h = await createHarness({ env: { OPERATOR_2FA: 'optional' } });
});
afterAll(async () => h?.close());

const grant = (by: TestUser, email: string, role: string) => call(h, 'POST', op('adminGrantRole'), { email, role }, { token: by.token });
const revoke = (by: TestUser, userId: string, role: string) =>
  call(h, 'POST', op('adminRevokeRole'), { userId, role }, { token: by.token });
const search = (by: TestUser, input: Record<string, unknown>) => call(h, 'GET', op('adminSearchAudit'), input, { token: by.token });

describe('roles', () => {
  let first: TestUser;
  let second: TestUser;
  it('never takes admin from the last admin, and two admins cannot revoke each other to none', async () => {
    // No ADMIN_EMAILS account has signed in here: the one granted admin is the only admin.
    first = await signIn(h);
    await grantRoles(h, [[first, 'admin']]);
    const last = await revoke(first, first.id, 'admin');
    expect(last.statusCode, last.body).toBe(409);
    expect(last.json().error.message).toMatch(/last admin/);

    second = await signIn(h);
    expect((await grant(first, second.email, 'admin')).statusCode).toBe(200);
    const [a, b] = await Promise.all([revoke(first, second.id, 'admin'), revoke(second, first.id, 'admin')]);
    // Whichever commits first wins; the other is refused (the last admin, 409) or is no longer an admin (403).
    expect([a, b].filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect([a, b].map((r) => r.statusCode).filter((s) => s !== 200)[0]).toBeOneOf([403, 409]);
    const admins = await h.app.services.db.execute(sql`SELECT count(*)::int AS n FROM operator_roles WHERE role = 'admin'`);
    expect(Number((admins as unknown as { rows: { n: number }[] }).rows[0].n)).toBe(1);
  });

  it('lists operators with roles and second factors; grants are idempotent; unknown e-mails and roles refused', async () => {
    const admin = (await call(h, 'GET', op('adminListOperators'), undefined, { token: first.token })).statusCode === 200 ? first : second;
    const support = await signIn(h);
    expect((await grant(admin, support.email, 'support')).json().operator).toMatchObject({ email: support.email, roles: ['support'] });
    expect((await grant(admin, support.email, 'support')).json().operator.roles).toEqual(['support']);
    expect((await grant(admin, support.email, 'finance')).json().operator.roles).toEqual(['finance', 'support']);
    // An e-mail with no account is invited (test/operators/invitations.test.ts).
    expect((await grant(admin, 'nobody@example.com', 'support')).json().invitation).toMatchObject({ email: 'nobody@example.com' });
    expect((await grant(admin, support.email, 'owner')).statusCode).toBe(400);
    const list = await call(h, 'GET', op('adminListOperators'), undefined, { token: admin.token });
    expect(list.json().items).toContainEqual({
      userId: support.id,
      email: support.email,
      roles: ['finance', 'support'],
      configAdmin: false,
      twoFactor: { totp: false, passkeys: 0 },
    });
    // A support operator cannot hand out roles.
    expect((await grant(support, support.email, 'admin')).statusCode).toBe(403);
    expect((await revoke(admin, support.id, 'admin')).statusCode).toBe(404);

    // An ADMIN_EMAILS admin is the setting's: listed, not revocable.
    boss = await signIn(h, 'admin@example.com');
    const items = (await call(h, 'GET', op('adminListOperators'), undefined, { token: boss.token })).json().items;
    expect(items.find((i: { email: string }) => i.email === 'admin@example.com')).toMatchObject({ roles: ['admin'], configAdmin: true });
    expect((await revoke(admin, boss.id, 'admin')).statusCode).toBe(409);
  });
});

describe('adminSearchAudit', () => {
  it('filters by operator, operation, target and time, and pages by cursor without repeats', async () => {
    const people = await Promise.all([signIn(h), signIn(h), signIn(h)]);
    for (const p of people) expect((await grant(boss, p.email, 'support')).statusCode).toBe(200);
    const mine = await search(boss, { operatorId: boss.id, operation: 'adminGrantRole', limit: 2 });
    expect(mine.statusCode, mine.body).toBe(200);
    const seen: string[] = [];
    let page = mine.json();
    for (;;) {
      for (const item of page.items) {
        expect(item).toMatchObject({
          operatorId: boss.id,
          operatorEmail: 'admin@example.com',
          operation: 'adminGrantRole',
          roles: ['admin'],
        });
        seen.push(item.id);
      }
      if (!page.nextCursor) break;
      page = (await search(boss, { operatorId: boss.id, operation: 'adminGrantRole', limit: 2, cursor: page.nextCursor })).json();
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(3);

    const one = (await search(boss, { targetId: people[1].id })).json().items;
    expect(one.length).toBeGreaterThanOrEqual(1);
    for (const item of one) expect(item.targets).toContainEqual({ type: 'user', id: people[1].id });
    expect(one[0]).toMatchObject({
      outcome: 'ok',
      before: { roles: [] },
      after: { roles: ['support'] },
      input: { email: people[1].email, role: 'support' },
    });

    const now = h.clock.now().getTime();
    const inRange = await search(boss, { from: new Date(now - 1000).toISOString(), to: new Date(now + 1000).toISOString(), limit: 100 });
    expect(inRange.json().items.length).toBeGreaterThan(0);
    const before = await search(boss, { to: new Date(now - 60_000).toISOString() });
    expect(before.json().items).toEqual([]);

    expect((await search(boss, { cursor: 'not-a-cursor' })).statusCode).toBe(400);
    expect((await search(boss, { from: 'yesterday' })).statusCode).toBe(400);
    expect((await search(boss, { operatorId: 'x' })).statusCode).toBe(400);
    // The search is admin-only, and itself audited.
    expect((await search(people[0], {})).statusCode).toBe(403);
    const searches = (await search(boss, { operation: 'adminSearchAudit', operatorId: boss.id })).json().items;
    expect(searches.length).toBeGreaterThanOrEqual(6);
  });
});
