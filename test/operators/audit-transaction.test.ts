import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { isSecretField, redactSecrets } from '../../src/kernel/redaction.js';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';

/**
 * Issue 30: an admin call's effect and its audit row commit or roll back together (http/admin-audit.ts,
 * db/ambient.ts). Faults are the database's own: a trigger refuses the audit insert, or the effect's write.
 */
let h: Harness;
let admin: TestUser;
beforeAll(async () => {
  h = await createHarness({ env: { OPERATOR_2FA: 'optional' } });
  admin = await signIn(h, 'admin@example.com');
});
afterAll(async () => h?.close());
afterEach(async () => {
  await h.app.services.db.execute(sql`DROP TRIGGER IF EXISTS test_refuse ON audit_log`);
  await h.app.services.db.execute(sql`DROP TRIGGER IF EXISTS test_refuse ON vtu_markups`);
});

const SET_MARKUP = '/_serverFn/adminSetMarkupBearerAdmin';
const markupsOf = () =>
  rows<{ kind: string; value: string }>(
    h.app.services.db,
    sql`SELECT kind, value::text AS value FROM vtu_markups WHERE service = 'airtime' AND provider = ''`,
  );
const rowsOf = (requestId: string) =>
  rows<{
    action: string;
    outcome: string;
    before_state: unknown;
    after_state: unknown;
    input: Record<string, unknown> | null;
    targets: unknown;
  }>(
    h.app.services.db,
    sql`SELECT action, outcome, before_state, after_state, input, targets FROM audit_log WHERE request_id = ${requestId}`,
  );
/** A trigger that raises on `table` for rows matching `when` (SQL over NEW). */
const refuse = async (table: string, when: string) => {
  await h.app.services.db.execute(
    sql.raw(`CREATE OR REPLACE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN RAISE EXCEPTION 'refused by the test'; END $$`),
  );
  await h.app.services.db.execute(
    sql.raw(`CREATE TRIGGER test_refuse BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION test_refuse()`),
  );
};

describe('effect and audit row in one transaction', () => {
  it('the audit insert fails: the markup change is rolled back, and the error still gets its row', async () => {
    const before = await markupsOf();
    await refuse('audit_log', `NEW.action = 'adminSetMarkup' AND NEW.outcome = 'ok'`);
    const res = await call(h, 'POST', SET_MARKUP, { service: 'airtime', kind: 'flat', value: 7 }, { token: admin.token });
    expect(res.statusCode).toBe(500);
    expect(await markupsOf()).toEqual(before);
    const written = await rowsOf(String(res.headers['x-request-id']));
    expect(written.map((r) => [r.action, r.outcome])).toEqual([['adminSetMarkup', 'INTERNAL']]);
  });

  it('the effect fails after its first write: nothing of it stays, no ok row, one error row', async () => {
    const before = await markupsOf();
    await refuse('vtu_markups', `NEW.service = 'airtime'`);
    const res = await call(h, 'POST', SET_MARKUP, { service: 'airtime', kind: 'flat', value: 9 }, { token: admin.token });
    expect(res.statusCode).toBe(500);
    expect(await markupsOf()).toEqual(before);
    const written = await rowsOf(String(res.headers['x-request-id']));
    expect(written.map((r) => r.outcome)).toEqual(['INTERNAL']);
  });

  it('without faults: the change and one ok row with target and before/after', async () => {
    const first = await call(h, 'POST', SET_MARKUP, { service: 'airtime', kind: 'flat', value: 5 }, { token: admin.token });
    expect(first.statusCode, first.body).toBe(200);
    const res = await call(h, 'POST', SET_MARKUP, { service: 'airtime', kind: 'percent', value: 2.5 }, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(await markupsOf()).toEqual([{ kind: 'percent', value: '250' }]);
    const [row] = await rowsOf(String(res.headers['x-request-id']));
    expect(row).toMatchObject({
      action: 'adminSetMarkup',
      outcome: 'ok',
      targets: [{ type: 'vtu_markup', id: 'airtime:*' }],
      before_state: { kind: 'flat', value: 5 },
      after_state: { kind: 'percent', value: 2.5 },
      input: { service: 'airtime', kind: 'percent', value: 2.5 },
    });
  });

  it('a refused input is recorded as its size and digest only', async () => {
    const res = await call(
      h,
      'POST',
      SET_MARKUP,
      { service: 'airtime', kind: 'flat', value: 1, pin: '1234', grantToken: 'abc' },
      { token: admin.token },
    );
    expect(res.statusCode).toBe(400);
    const [row] = await rowsOf(String(res.headers['x-request-id']));
    expect(row.outcome).toBe('VALIDATION_FAILED');
    expect(row.input).toEqual({ refused: true, bytes: expect.any(Number), hmacSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(row.input)).not.toContain('1234');
  });
});

describe('secret fields', () => {
  it('knows secret names in every spelling and leaves ordinary ones', () => {
    for (const k of [
      'pin',
      'newPin',
      'transaction_pin',
      'code',
      'totpCode',
      'otp',
      'password',
      'refreshToken',
      'grant-token',
      'apiKey',
      'secret',
      'signature',
    ])
      expect(isSecretField(k), k).toBe(true);
    for (const k of ['shipping', 'reason', 'userId', 'amount', 'provider', 'opinion', 'service']) expect(isSecretField(k), k).toBe(false);
  });
  it('redacts nested secrets and bounds long values', () => {
    const out = redactSecrets({ a: { pin: '1' }, list: [{ otp: '2' }], text: 'x'.repeat(600), n: 10n }) as Record<string, any>;
    expect(out.a.pin).toBe('[redacted]');
    expect(out.list[0].otp).toBe('[redacted]');
    expect(out.text.length).toBeLessThan(510);
    expect(out.n).toBe('10');
  });
});
