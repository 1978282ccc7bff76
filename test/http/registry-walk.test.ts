import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOperations } from '../../src/modules/index.js';
import { authOf, serverFnPath, versionedPath, type AnyOperation } from '../../src/platform/operation.js';
import { createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';

// Walks the whole registry (docs/design.md §3): every protected operation refuses a missing, forged or expired token in
// both path forms; junk input gives 400 with the error shape; nothing ever answers 500.
let h: Harness;
let user: TestUser;
let admin: TestUser;

// Operations that end the caller's session or account get a fresh user each time, so the walk keeps a live token.
const SESSION_ENDING = new Set(['signOut', 'closeAccount', 'endWhatsappLink']);
async function tokenFor(op: AnyOperation): Promise<string> {
  if (authOf(op) === 'admin') return admin.token;
  if (SESSION_ENDING.has(op.name)) return (await signIn(h)).token;
  return user.token;
}

const pathsOf = (op: AnyOperation) => [serverFnPath(op), ...(op.versioned ? [versionedPath(op)] : [])];
const protectedOps = allOperations.filter((op) => authOf(op) !== 'public');

function send(op: AnyOperation, url: string, opts: { token?: string; data?: unknown; rawBody?: string; query?: string }) {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (op.method === 'GET') return h.app.inject({ method: 'GET', url: url + (opts.query ?? ''), headers });
  if (opts.rawBody !== undefined) {
    headers['content-type'] = 'application/json';
    return h.app.inject({ method: 'POST', url, headers, payload: opts.rawBody });
  }
  return h.app.inject({ method: 'POST', url, headers, payload: opts.data === undefined ? undefined : (opts.data as object) });
}

beforeAll(async () => {
  h = await createHarness();
  user = await signIn(h);
  admin = await signIn(h, 'admin@example.com');
});
afterAll(async () => h.close());

describe('registry walk: authentication', () => {
  it('has operations registered in both path forms', () => {
    expect(allOperations.length).toBeGreaterThan(0);
    const names = new Set(allOperations.map((o) => `${o.name}${o.suffix}`));
    expect(names.size).toBe(allOperations.length);
  });

  it('every protected operation answers 401 without a token, with a forged one and with an expired one', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const forged = await new SignJWT({ sid: user.sessionId })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setSubject(user.id)
      .setIssuer(h.config.auth.issuer)
      .setAudience(h.config.auth.audience)
      .setExpirationTime('10m')
      .sign(privateKey);
    const otherIssuer = user.token.split('.').slice(0, 2).join('.') + '.AAAA';
    for (const op of protectedOps) {
      for (const url of pathsOf(op)) {
        for (const token of [undefined, forged, otherIssuer, 'not-a-jwt']) {
          const res = await send(op, url, { token });
          expect(res.statusCode, `${op.method} ${url} token=${token?.slice(0, 8)}`).toBe(401);
          expect(res.json().error.code).toBe('UNAUTHENTICATED');
        }
      }
    }
    // Expired: move the clock past the 15-minute lifetime.
    h.clock.advance(16 * 60 * 1000);
    try {
      for (const op of protectedOps) {
        const res = await send(op, serverFnPath(op), { token: user.token });
        expect(res.statusCode, `${op.name} expired`).toBe(401);
      }
    } finally {
      h.clock.advance(-16 * 60 * 1000);
    }
  });

  it('operator operations refuse a normal user with 403', async () => {
    for (const op of allOperations.filter((o) => authOf(o) === 'admin')) {
      const res = await send(op, serverFnPath(op), { token: user.token, data: { data: {} } });
      expect(res.statusCode, op.name).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
  });
});

describe('registry walk: validation', () => {
  it('unknown input fields give 400 VALIDATION_FAILED with issues, in both path forms', async () => {
    for (const op of allOperations) {
      const token = await tokenFor(op);
      for (const url of pathsOf(op)) {
        const res = await send(op, url, { token, data: { data: { __junk: 1 } }, query: '?__junk=1' });
        expect(res.statusCode, `${op.method} ${url}`).toBe(400);
        const body = res.json();
        expect(body.ok).toBe(false);
        expect(body.error.code).toBe('VALIDATION_FAILED');
        expect(typeof body.error.message).toBe('string');
        expect(Array.isArray(body.error.issues)).toBe(true);
      }
    }
  });

  it('malformed bodies give 400, never 500', async () => {
    for (const op of allOperations.filter((o) => o.method === 'POST')) {
      for (const raw of ['{', '[]', '"x"', '{"data": 5}', '{"data": [1]}', '{"other": {}}', '{"data": {"__proto__": {"x": 1}}}']) {
        const res = await send(op, serverFnPath(op), { token: await tokenFor(op), rawBody: raw });
        expect(res.statusCode, `${op.name} ${raw}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${op.name} ${raw}`).toBeLessThan(500);
      }
    }
  });

  // About 800 requests: on a loaded 2-core machine more than the suite's 60 s default (as the fuzz file allows).
  it('fast-check generated inputs never produce a 500', { timeout: 180_000 }, async () => {
    const junk = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.dictionary(
        fc.constantFrom(
          'amount',
          'pin',
          'id',
          'email',
          'phone',
          'limit',
          'offset',
          'network',
          'code',
          'username',
          '__proto__',
          'constructor',
        ),
        fc.jsonValue({ maxDepth: 2 }),
      ),
      fc.string({ maxLength: 2000 }),
    );
    for (const op of allOperations) {
      await fc.assert(
        fc.asyncProperty(junk, async (value) => {
          const token = await tokenFor(op);
          const res =
            op.method === 'GET'
              ? await send(op, serverFnPath(op), {
                  token,
                  query:
                    value && typeof value === 'object' && !Array.isArray(value)
                      ? '?' +
                        new URLSearchParams(
                          Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
                        ).toString()
                      : `?q=${encodeURIComponent(JSON.stringify(value))}`,
                })
              : await send(op, serverFnPath(op), { token, data: { data: value } });
          if (res.statusCode >= 500) throw new Error(`${op.name} answered ${res.statusCode}: ${res.body}`);
        }),
        { numRuns: 8, seed: 42 },
      );
    }
  });
});
