import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOperations } from '../../src/modules/index.js';
import { authOf, serverFnPath, type AnyOperation } from '../../src/platform/operation.js';
import { createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { unrecorded } from '../helpers/secrets.js';
import { anyInput, invalidInput, rawBodies, toQuery, validInput } from './arbitraries.js';
import { diff, fingerprint, shapeProblem } from './fingerprint.js';

// Registry-wide fuzzing, beyond test/http/registry-walk.test.ts: inputs derived from each
// operation's zod schema with one field made hostile, and raw bodies no JSON serialiser would produce. Every
// answer must have the documented error shape and no status of 500 or more (except a documented
// UPSTREAM_ERROR of an operation that calls a provider). Schema failures must leave the database untouched.
let h: Harness;
const ADMINS = Array.from({ length: 8 }, (_, i) => `admin${i}@example.com`);

// Operations that end the caller's session or account: each request gets its own fresh user.
const SESSION_ENDING = new Set(['signOut', 'closeAccount', 'endWhatsappLink']);
// Per-user budgets under the fixed per-minute limits of the 'strict' (10) and 'auth' (20) classes, so the
// fuzz reaches validation instead of the rate limiter.
const BUDGET: Record<string, number> = { strict: 8, auth: 18 };

const pools: Record<'user' | 'admin', TestUser[]> = { user: [], admin: [] };
const used = new Map<string, number>();

async function tokenFor(op: AnyOperation): Promise<string | undefined> {
  const auth = authOf(op);
  if (auth === 'public') return undefined;
  if (SESSION_ENDING.has(op.name)) return (await signIn(h)).token;
  const n = used.get(op.name) ?? 0;
  used.set(op.name, n + 1);
  const idx = Math.floor(n / (BUDGET[op.rateLimit ?? ''] ?? Infinity));
  const pool = pools[auth];
  while (pool.length <= idx) {
    if (auth === 'admin' && pool.length >= ADMINS.length) throw new Error('admin pool exhausted: raise ADMINS');
    pool.push(await signIn(h, auth === 'admin' ? ADMINS[pool.length] : undefined));
  }
  return pool[idx].token;
}

// Fuzzed values are not recorded as secrets for the log scan (test/helpers/secrets.ts); the sign-ins are.
function send(op: AnyOperation, token: string | undefined, input: unknown, raw?: Buffer) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (op.method === 'GET')
    return unrecorded(h.secrets, () => h.app.inject({ method: 'GET', url: serverFnPath(op) + toQuery(input), headers }));
  headers['content-type'] = 'application/json';
  return unrecorded(h.secrets, () =>
    h.app.inject({ method: 'POST', url: serverFnPath(op), headers, payload: raw ?? JSON.stringify({ data: input }) }),
  );
}

const MUST_REFUSE = new Set([
  'invalid UTF-8 in a key',
  '1000 nested arrays',
  '1000 nested objects',
  'over the body limit',
  '__proto__ at top level',
  'prototype keys inside data',
  'prototype key as the field',
  'array for data',
  'array for the body',
  'NaN literal',
  'number overflowing to Infinity',
  'trailing garbage',
  'NUL in a key',
]);

// Small, cheap operations get more runs; the whole file stays within about a minute on PGlite. A fixed seed
// keeps CI reproducible; FUZZ_SEED and FUZZ_SCALE explore further by hand (FUZZ_SEED=$RANDOM FUZZ_SCALE=5).
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const runsFor = (op: AnyOperation) => Math.round(SCALE * (SESSION_ENDING.has(op.name) ? 4 : op.method === 'GET' ? 12 : 20));

beforeAll(async () => {
  h = await createHarness({ env: { ADMIN_EMAILS: ADMINS.join(','), RATE_LIMIT_PER_MINUTE: '100000' } });
});
afterAll(async () => h?.close());

describe('registry fuzz', () => {
  it('schema-derived hostile inputs: documented error shape, never 500', { timeout: 180_000 * SCALE }, async () => {
    const problems: string[] = [];
    let validated = 0;
    for (const op of allOperations) {
      await fc.assert(
        fc.asyncProperty(anyInput(op.input), async (value) => {
          const res = await send(op, await tokenFor(op), value);
          const p = shapeProblem(op, res);
          if (p) problems.push(`${op.name} ${JSON.stringify(value)?.slice(0, 200)}: ${p}`);
          if (res.statusCode === 400) validated++;
        }),
        { numRuns: runsFor(op), seed: SEED, endOnFailure: true },
      );
    }
    expect(problems).toEqual([]);
    // The fuzz reached validation, not only the rate limiter or the authenticator.
    expect(validated).toBeGreaterThan(allOperations.length * 3);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });

  it(
    'raw bodies (invalid UTF-8, 1000-level nesting, 100k strings, prototype keys, NaN/Infinity): 4xx with the error shape',
    { timeout: 120_000 },
    async () => {
      const problems: string[] = [];
      for (const op of allOperations.filter((o) => o.method === 'POST')) {
        const firstKey = Object.keys(op.input.shape)[0] ?? 'x';
        for (const { name, body } of rawBodies(firstKey)) {
          const res = await send(op, await tokenFor(op), undefined, body);
          const p = shapeProblem(op, res);
          if (p) problems.push(`${op.name} [${name}]: ${p}`);
          // These bodies can never be a valid call. (Invalid UTF-8 is decoded leniently to U+FFFD and duplicate
          // keys keep the last, so an operation with only optional text fields may accept those.)
          else if (res.statusCode === 200 && MUST_REFUSE.has(name)) problems.push(`${op.name} [${name}]: accepted`);
        }
      }
      expect(problems).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
    },
  );

  it('the same raw bodies with an Idempotency-Key (hashed and stored) are answered without 500', { timeout: 60_000 }, async () => {
    const problems: string[] = [];
    // The idempotency path is shared by all operations: a sample of them is enough.
    const ops = allOperations.filter((o, i) => o.method === 'POST' && authOf(o) !== 'public' && !SESSION_ENDING.has(o.name) && i % 6 === 0);
    for (const op of ops) {
      const firstKey = Object.keys(op.input.shape)[0] ?? 'x';
      for (const { name, body } of rawBodies(firstKey).filter((r) => /nested|proto|UTF-8/.test(r.name))) {
        const token = await tokenFor(op);
        const res = await unrecorded(h.secrets, () =>
          h.app.inject({
            method: 'POST',
            url: serverFnPath(op),
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': `fz-${op.name}-${name}` },
            payload: body,
          }),
        );
        const p = shapeProblem(op, res);
        if (p) problems.push(`${op.name} [${name}]: ${p}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('text with a NUL character is refused as a validation failure by every operation (PostgreSQL cannot store it)', async () => {
    const problems: string[] = [];
    const inputs: Array<[AnyOperation, Record<string, unknown>]> = [];
    for (const op of allOperations) {
      // A valid-shaped input with NUL inside its first text field, so the NUL is the only thing wrong.
      const [sample] = fc.sample(validInput(op.input), { numRuns: 1, seed: 11 });
      const key = Object.keys(sample).find((k) => typeof sample[k] === 'string') ?? Object.keys(op.input.shape)[0] ?? 'x';
      inputs.push([op, { ...sample, [key]: `${String(sample[key] ?? '')}\u0000` }]);
    }
    // Found by this fuzzer: operator notes reached PostgreSQL and answered 500.
    const byName = new Map(allOperations.map((o) => [o.name, o]));
    for (const name of ['adminUpdateMarketplaceOrder', 'adminUpdateSubscriptionOrder'])
      inputs.push([byName.get(name)!, { id: '00000000-0000-4000-8000-000000000000', status: 'cancelled', note: 'a\u0000b' }]);
    for (const [op, input] of inputs) {
      const res = await send(op, await tokenFor(op), input);
      if (res.statusCode !== 400 || res.json().error?.code !== 'VALIDATION_FAILED')
        problems.push(`${op.name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  });

  it('a batch of schema failures changes nothing in the database, for every operation', { timeout: 120_000 }, async () => {
    // Tokens are taken before the first fingerprint: signing a pool user in writes rows.
    const plan: Array<{ op: AnyOperation; calls: Array<{ token: string | undefined; input: unknown }> }> = [];
    for (const op of allOperations) {
      const calls = [];
      for (const input of fc.sample(invalidInput(op.input), { numRuns: 4, seed: 7 })) calls.push({ token: await tokenFor(op), input });
      plan.push({ op, calls });
    }
    const problems: string[] = [];
    // No table is excluded: a schema failure stops before the handler, so not even the 4xx answers that
    // legitimately record state (wrong-PIN and OTP attempt counters, login-failure traces, stored idempotent
    // answers: no Idempotency-Key is sent here) may write a row. The one row allowed is the registry's audit row of
    // an operator's refused call (issue #30: every admin call leaves one, outcome VALIDATION_FAILED or BAD_REQUEST):
    // exactly one per call, nothing else.
    let before = await fingerprint(h);
    for (const { op, calls } of plan) {
      for (const { token, input } of calls) {
        const res = await send(op, token, input);
        const body = res.json();
        // BAD_REQUEST: the JSON parser refuses "__proto__" keys before the schema; both stop before the handler.
        if (res.statusCode !== 400 || !['VALIDATION_FAILED', 'BAD_REQUEST'].includes(body.error?.code))
          problems.push(`${op.name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      const after = await fingerprint(h);
      if (authOf(op) === 'admin') {
        const added = Number(after.audit_log) - Number(before.audit_log);
        if (added !== calls.length) problems.push(`${op.name} added ${added} audit rows for ${calls.length} refused calls`);
        before = { ...before, audit_log: after.audit_log };
      }
      const changed = diff(before, after);
      if (changed.length) problems.push(`${op.name} changed ${changed.join(', ')}`);
      before = after;
    }
    expect(problems).toEqual([]);
  });
});
