import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { one, rows } from '../../src/db/client.js';
import { authOf, serverFnPath, type AnyOperation } from '../../src/platform/operation.js';
import type { OperatorRole } from '../../src/kernel/actor.js';
import { allOperations } from '../../src/modules/index.js';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';

/**
 * Issue 30: the role x operation matrix and "one audit row per admin call", both walked from the registry, so a
 * new admin operation is covered the day it is declared. Every operation is called with an empty input by an
 * admin, a finance-only operator, a support-only operator and a customer.
 */
let h: Harness;
let admin: TestUser;
let finance: TestUser;
let support: TestUser;
let customer: TestUser;
const adminOps = allOperations.filter((op) => authOf(op) === 'admin');

beforeAll(async () => {
  h = await createHarness({ env: { OPERATOR_2FA: 'optional' } });
  admin = await signIn(h, 'admin@example.com');
  finance = await signIn(h);
  support = await signIn(h);
  customer = await signIn(h);
  for (const [who, role] of [
    [finance, 'finance'],
    [support, 'support'],
  ] as const) {
    const res = await call(h, 'POST', '/_serverFn/adminGrantRoleBearerAdmin', { email: who.email, role }, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterAll(async () => h?.close());

const auditCount = async () => Number((await one<{ n: number }>(h.app.services.db, sql`SELECT count(*)::int AS n FROM audit_log`))!.n);
const rowsOf = (requestId: string) =>
  rows<{ action: string; actor_id: string; outcome: string; roles: string[]; ip: string }>(
    h.app.services.db,
    sql`SELECT action, actor_id::text AS actor_id, outcome, roles, ip FROM audit_log WHERE request_id = ${requestId}`,
  );
const callEmpty = (op: AnyOperation, token: string) =>
  call(h, op.method, serverFnPath(op), op.method === 'POST' ? {} : undefined, { token });

describe('every admin operation declares its roles', () => {
  it('has roles on each BearerAdmin declaration and on nothing else', () => {
    expect(adminOps.length).toBeGreaterThanOrEqual(40);
    for (const op of allOperations) {
      if (authOf(op) === 'admin') expect(Array.isArray(op.roles), op.name).toBe(true);
      else expect(op.roles, op.name).toBeUndefined();
    }
  });
  it('keeps money away from support', () => {
    const money = ['adminAdjustWallet', 'adminFundProviderFloat', 'adminResolveVtuTransaction', 'adminRunReconciliation'];
    for (const op of adminOps.filter((o) => money.includes(o.name))) expect(op.roles, op.name).not.toContain('support');
  });
});

describe('role x operation matrix, and one audit row per call', () => {
  const callers: [string, () => TestUser, OperatorRole[]][] = [
    ['admin', () => admin, ['admin']],
    ['finance', () => finance, ['finance']],
    ['support', () => support, ['support']],
  ];
  for (const [label, who, held] of callers) {
    it(`${label}: runs what its role allows, 403 FORBIDDEN elsewhere, one audit row each`, async () => {
      const user = who();
      for (const op of adminOps) {
        const allowed = held.includes('admin') || held.some((r) => op.roles!.includes(r));
        const before = await auditCount();
        const res = await callEmpty(op, user.token);
        const code = res.json().error?.code;
        expect(res.statusCode, `${label} ${op.name}: ${res.body}`).not.toBe(500);
        if (allowed) expect(code, `${label} ${op.name}`).not.toBe('FORBIDDEN');
        else {
          expect(res.statusCode, `${label} ${op.name}`).toBe(403);
          expect(code, `${label} ${op.name}`).toBe('FORBIDDEN');
        }
        expect(await auditCount(), `${label} ${op.name}: rows written`).toBe(before + 1);
        const written = await rowsOf(String(res.headers['x-request-id']));
        expect(written, `${label} ${op.name}: the call's own row`).toHaveLength(1);
        const row = written[0];
        expect(row.action).toBe(op.name);
        expect(row.actor_id).toBe(user.id);
        expect(row.outcome).toBe(res.json().ok ? 'ok' : code);
        expect(row.ip).toBeTruthy();
        expect(row.roles).toEqual(held);
      }
    });
  }

  it('customer: 403 FORBIDDEN on every admin operation, and no audit row (a customer is no operator)', async () => {
    const before = await auditCount();
    for (const op of adminOps) {
      const res = await callEmpty(op, customer.token);
      expect(res.statusCode, op.name).toBe(403);
      expect(res.json().error.code, op.name).toBe('FORBIDDEN');
    }
    expect(await auditCount()).toBe(before);
  });

  it('without a token: 401 and no row', async () => {
    const before = await auditCount();
    for (const op of adminOps) expect((await call(h, op.method, serverFnPath(op))).statusCode, op.name).toBe(401);
    expect(await auditCount()).toBe(before);
  });
});

describe('roles follow grants and revocations at once', () => {
  it('a revoked role stops working on the next request; a grant starts working', async () => {
    const op = '/_serverFn/adminListProviderFloatsBearerAdmin';
    const someone = await signIn(h);
    expect((await call(h, 'GET', op, undefined, { token: someone.token })).statusCode).toBe(403);
    await call(h, 'POST', '/_serverFn/adminGrantRoleBearerAdmin', { email: someone.email, role: 'finance' }, { token: admin.token });
    expect((await call(h, 'GET', op, undefined, { token: someone.token })).statusCode).toBe(200);
    const revoke = await call(
      h,
      'POST',
      '/_serverFn/adminRevokeRoleBearerAdmin',
      { userId: someone.id, role: 'finance' },
      { token: admin.token },
    );
    expect(revoke.statusCode, revoke.body).toBe(200);
    expect(revoke.json().operator.roles).toEqual([]);
    expect((await call(h, 'GET', op, undefined, { token: someone.token })).statusCode).toBe(403);
  });
});
