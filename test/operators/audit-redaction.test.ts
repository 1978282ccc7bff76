import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { authOf } from '../../src/platform/operation.js';
import { pinInput } from '../../src/kernel/inputs.js';
import { declaredFields, declaredInput, isSecretField, redactLinks, secret } from '../../src/kernel/redaction.js';
import { allOperations } from '../../src/modules/index.js';
import { call, createHarness, emailGrant, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { createSoftAuthenticator } from '../helpers/webauthn.js';

/**
 * Issue 41: an admin call's audit row keeps only the fields its input schema declares, the ones declared secret
 * redacted (kernel/redaction.ts, http/admin-audit.ts); a refused input only as its size and a keyed digest.
 */
let h: Harness;
let admin: TestUser;
/** An admin who registers a passkey (then steps up with it alone, so not the one the other calls use). */
let enrolling: TestUser;
let customer: TestUser;
beforeAll(async () => {
  h = await createHarness({ env: { OPERATOR_2FA: 'optional', ADMIN_EMAILS: 'admin@example.com,boss@example.com' } });
  admin = await signIn(h, 'admin@example.com');
  enrolling = await signIn(h, 'boss@example.com');
  customer = await signIn(h);
});
afterAll(async () => h?.close());

const op = (name: string) => `/_serverFn/${name}BearerAdmin`;
type Row = Record<string, unknown> & { id: string; actor_id: string; request_id: string; outcome: string; input: unknown };
const rowOf = async (res: { headers: Record<string, unknown> }): Promise<Row> => {
  const [row] = await rows<Row>(h.app.services.db, sql`SELECT * FROM audit_log WHERE request_id = ${String(res.headers['x-request-id'])}`);
  return row;
};
/** The row as JSON without its random ids, which could hold any short digit string by chance. */
const textOf = (row: Row) => JSON.stringify({ ...row, id: null, actor_id: null, request_id: null });
/** A step-up grant by an e-mailed code (a minute apart: a code may be asked for once a minute). */
const grant = async (who = admin) => {
  h.clock.advance(61_000);
  return emailGrant(h, who);
};
const post = async (name: string, input: Record<string, unknown>) =>
  call(h, 'POST', op(name), input, { token: admin.token, headers: await grant() });

describe('an accepted input', () => {
  it('keeps the declared fields', async () => {
    const res = await post('adminSetMarkup', { service: 'airtime', kind: 'flat', value: 5 });
    expect(res.statusCode, res.body).toBe(200);
    expect((await rowOf(res)).input).toEqual({ service: 'airtime', kind: 'flat', value: 5 });
  });

  it('redacts a field its schema declares secret and drops a nested field it does not declare (adminPasskeyRegister)', async () => {
    const headers = await grant(enrolling);
    const optionsRes = await call(h, 'POST', op('adminPasskeyRegisterOptions'), {}, { token: enrolling.token, headers });
    expect(optionsRes.statusCode, optionsRes.body).toBe(200);
    const key = createSoftAuthenticator({ origin: h.config.webauthn.origin, rpId: h.config.webauthn.rpId });
    const response = key.register(optionsRes.json().options);
    // The nested object is not strict: zod drops its unknown field and the call is accepted.
    // The secret values carry a '~', which no id, digest or timestamp in the row can hold by chance.
    const input = { response: { ...response, pincode: 'pin~5555' }, name: 'Laptop' };
    const res = await call(h, 'POST', op('adminPasskeyRegister'), input, { token: enrolling.token, headers });
    expect(res.statusCode, res.body).toBe(200);
    const row = await rowOf(res);
    expect(row.input).toEqual({
      response: { id: response.id, rawId: response.rawId, type: 'public-key', response: '[redacted]', clientExtensionResults: {} },
      name: 'Laptop',
    });
    expect(textOf(row)).not.toContain('pin~5555');
    expect(textOf(row)).not.toContain(response.response.clientDataJSON);
    expect(textOf(row)).not.toContain(response.response.attestationObject.slice(0, 40));
  });

  it("redacts a link's secret parameters inside a value, in the input and the after state", async () => {
    const reason = 'customer sent https://x/y?sig=abc&expires=1 as proof';
    const res = await post('adminFreezeCustomer', { userId: customer.id, reason });
    expect(res.statusCode, res.body).toBe(200);
    const row = await rowOf(res);
    const kept = 'customer sent https://x/y?sig=[redacted]&expires=1 as proof';
    expect(row.input).toEqual({ userId: customer.id, reason: kept });
    expect(row.after_state).toMatchObject({ reason: kept });
    expect(textOf(row)).not.toContain('sig=abc');
  });
});

describe('a refused input', () => {
  const refused = { refused: true, bytes: expect.any(Number), hmacSha256: expect.stringMatching(/^[0-9a-f]{64}$/) };

  it('an unknown field is refused and leaves only the size and digest of the input', async () => {
    const input = { service: 'airtime', kind: 'flat', value: 1, pincode: 'pin~1234' };
    const res = await post('adminSetMarkup', input);
    expect(res.statusCode).toBe(400);
    const row = await rowOf(res);
    expect(row.outcome).toBe('VALIDATION_FAILED');
    expect(row.input).toEqual(refused);
    expect((row.input as { bytes: number }).bytes).toBe(Buffer.byteLength(JSON.stringify({ data: input })));
    expect(textOf(row)).not.toContain('pin~1234');
    expect(textOf(row)).not.toContain('pincode');
    // Equal inputs have equal digests (a refusal can be matched to a request a caller kept); others do not.
    const again = await rowOf(await post('adminSetMarkup', input));
    const other = await rowOf(await post('adminSetMarkup', { ...input, pincode: '1235' }));
    expect(again.input).toEqual(row.input);
    expect(other.input).not.toEqual(row.input);
  });

  it('refused before validation (the envelope, a GET query) likewise', async () => {
    const envelope = await h.app.inject({
      method: 'POST',
      url: op('adminSetMarkup'),
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { data: { service: 'airtime' }, pin: 'pin~4321' },
    });
    expect(envelope.statusCode).toBe(400);
    const query = await call(h, 'GET', op('adminListOperators'), { pincode: 'pin~4321' }, { token: admin.token });
    expect(query.statusCode).toBe(400);
    for (const res of [envelope, query]) {
      const row = await rowOf(res);
      expect(row.input).toEqual(refused);
      expect(textOf(row)).not.toContain('pin~4321');
    }
  });
});

describe('secret fields', () => {
  it('every admin input field whose name looks secret is declared secret in its schema', () => {
    const looksSecret = (name: string) =>
      name
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .some((w) => /^(?:pin|code|otp|totp)|(?:pin|code|otp)$|token|password|secret/.test(w));
    const admins = allOperations.filter((o) => authOf(o) === 'admin');
    expect(admins.length).toBeGreaterThan(50);
    for (const o of admins)
      for (const f of declaredFields(o.input))
        if (
          looksSecret(
            f.path
              .split(/[.[\]*]+/)
              .filter(Boolean)
              .at(-1) ?? '',
          )
        )
          expect(f.secret, `${o.name}: ${f.path}`).toBe(true);
    // The shared schemas carry the mark to every operation built on them: every transaction PIN field is secret.
    const pins = allOperations.flatMap((o) => declaredFields(o.input).filter((f) => f.path === 'pin'));
    expect(pins.length).toBeGreaterThan(10);
    expect(pins.every((f) => f.secret)).toBe(true);
  });

  it('the schema walk sees through nested objects, arrays, records and optional or nullable wrappers', () => {
    const schema = z.object({
      a: z.object({ pin: pinInput.optional(), note: z.string() }),
      list: z.array(z.object({ answer: secret(z.string()).nullable(), label: z.string() })),
      map: z.record(z.string(), secret(z.string()).describe('a value')),
      plain: z.string().optional(),
    });
    expect(
      declaredFields(schema)
        .filter((f) => f.secret)
        .map((f) => f.path),
    ).toEqual(['a.pin', 'list[].answer', 'map.*']);
    const value = {
      a: { pin: '1234', note: 'n', extra: 'x' },
      list: [{ answer: 'yes', label: 'l' }],
      map: { k: 'v' },
      plain: 'p',
      more: 1,
    };
    expect(declaredInput(schema, value)).toEqual({
      a: { pin: '[redacted]', note: 'n' },
      list: [{ answer: '[redacted]', label: 'l' }],
      map: { k: '[redacted]' },
      plain: 'p',
    });
  });

  it('names that look secret in every spelling, and ordinary ones', () => {
    for (const k of [
      'pincode',
      'PINCODE',
      'pwd',
      'totp',
      'jwt',
      'sig',
      'apikey',
      'APIKey',
      'refreshtoken',
      'X-Amz-Signature',
      'nin',
      'bvn',
    ])
      expect(isSecretField(k), k).toBe(true);
    for (const k of ['shipping', 'opinion', 'signal', 'footprint', 'options', 'ninety', 'expires', 'joinedAfter', 'remains'])
      expect(isSecretField(k), k).toBe(false);
  });

  it("a link's secret parameters and password are redacted, the rest kept", () => {
    expect(redactLinks('https://x/y?sig=abc&expires=1')).toBe('https://x/y?sig=[redacted]&expires=1');
    expect(redactLinks('a?X-Amz-Credential=k&X-Amz-Signature=s&page=2#access_token=t')).toBe(
      'a?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]&page=2#access_token=[redacted]',
    );
    expect(redactLinks('postgres://app:hunter2@db/x')).toBe('postgres://app:[redacted]@db/x');
    expect(redactLinks('plain text, no link')).toBe('plain text, no link');
  });
});
