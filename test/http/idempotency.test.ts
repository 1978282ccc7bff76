import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withIdempotency } from '../../src/http/idempotency.js';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';

let h: Harness;
let u: TestUser;
beforeAll(async () => {
  h = await createHarness();
  u = await signIn(h);
});
afterAll(async () => h.close());

const update = (data: Record<string, unknown>, key?: string, token = u.token) =>
  call(h, 'POST', '/_serverFn/updateProfileBearerSettings', data, { token, headers: key ? { 'idempotency-key': key } : {} });

describe('Idempotency-Key', () => {
  it('replays the stored answer with Idempotent-Replayed: true', async () => {
    const first = await update({ fullName: 'First Name' }, 'key-1');
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Change the profile behind the key's back: a replay must still show the first answer.
    await update({ fullName: 'Changed Meanwhile' });
    const replay = await update({ fullName: 'First Name' }, 'key-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
  });

  it('the same key with a different body is 422', async () => {
    await update({ fullName: 'Body A' }, 'key-2');
    const res = await update({ fullName: 'Body B' }, 'key-2');
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('keys are per user', async () => {
    const other = await signIn(h);
    await update({ fullName: 'Mine' }, 'shared-key');
    const res = await update({ fullName: 'Theirs' }, 'shared-key', other.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('error answers are replayed too; keys expire after 24 h', async () => {
    const bad = await update({ username: 'x' }, 'key-3');
    expect(bad.statusCode).toBe(400);
    const replay = await update({ username: 'x' }, 'key-3');
    expect(replay.statusCode).toBe(400);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    h.clock.advance(24 * 3600 * 1000 + 1);
    u = await signIn(h); // the access token expired with the clock; the key is per user, so reuse its id
    const fresh = await call(h, 'POST', '/_serverFn/updateProfileBearerSettings', { username: 'x' }, { token: u.token, headers: { 'idempotency-key': 'key-3' } });
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
  });

  it('20 concurrent requests with one key execute once', async () => {
    let executions = 0;
    const claim = { userId: u.id, key: 'concurrent', operation: 'test', requestHash: 'h' };
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        withIdempotency(h.app.services.db, h.clock, claim, async () => {
          executions++;
          await new Promise((r) => setTimeout(r, 20));
          return { status: 200, body: { ok: true, n: executions } };
        }),
      ),
    );
    expect(executions).toBe(1);
    for (const r of results) {
      if (r.status === 'fulfilled') expect(r.value.body).toEqual({ ok: true, n: 1 });
      else expect((r.reason as { code: string }).code).toBe('IDEMPOTENCY_IN_PROGRESS');
    }
    // Afterwards every retry replays.
    const again = await withIdempotency(h.app.services.db, h.clock, claim, async () => {
      executions++;
      return { status: 200, body: {} };
    });
    expect(again.replayed).toBe(true);
    expect(executions).toBe(1);
  });

  it('20 concurrent HTTP requests with one key: one executes, the rest replay or get 409', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => update({ fullName: 'Concurrent Name' }, 'http-concurrent')));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const executed = results.filter((r) => r.statusCode === 200 && r.headers['idempotent-replayed'] === undefined);
    expect(executed).toHaveLength(1);
  });

  it('a key longer than 255 characters is refused', async () => {
    const res = await update({ fullName: 'Long Key' }, 'k'.repeat(256));
    expect(res.statusCode).toBe(400);
  });
});
