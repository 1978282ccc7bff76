import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { userIdsNamed } from '../../src/modules/identity/api.js';
import { userIdsWithVerifiedName } from '../../src/modules/kyc/api.js';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { approveTier2, user } from '../helpers/factories.js';

// Issue 44: an operator finds a customer by name, the one on the profile or the one KYC verified, by its beginning or
// by whole words, whatever the case; each owner answers its own name through its api.ts, on its own indexes.
let h: Harness;
let admin: TestUser;

const found = async (q: string) => {
  const res = await call(h, 'GET', '/_serverFn/adminSearchCustomersBearerAdmin', { q }, { token: admin.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items.map((c: { userId: string; matchedBy: string }) => [c.userId, c.matchedBy]);
};

/**
 * The plans of statements over 3,000 named customers, each with an approved KYC name (written, analysed and rolled
 * back in one transaction): an index the statement reads shows in its plan with its condition.
 */
async function plans(statements: ReturnType<typeof sql>[]) {
  const found: string[] = [];
  const rollback = new Error('rollback');
  await h.app.services.db
    .transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO users (id, email, full_name, created_at, updated_at)
        SELECT gen_random_uuid(), 'plan' || i || '@example.com', 'Plan Person ' || i, now(), now() FROM generate_series(1, 3000) i`);
      await tx.execute(sql`INSERT INTO kyc_submissions (id, user_id, tier, status, files, verified_name, details, created_at, updated_at)
        SELECT gen_random_uuid(), id, 2, 'approved', '[]'::jsonb, full_name, '{}'::jsonb, now(), now() FROM users WHERE email LIKE 'plan%@example.com'`);
      await tx.execute(sql`ANALYZE users`);
      await tx.execute(sql`ANALYZE kyc_submissions`);
      for (const statement of statements) {
        const lines = await rows<Record<string, string>>(tx, sql`EXPLAIN ${statement}`);
        found.push(lines.map((l) => Object.values(l)[0]).join('\n'));
      }
      throw rollback;
    })
    .catch((err: unknown) => {
      if (err !== rollback) throw err;
    });
  return found;
}

beforeAll(async () => {
  h = await createHarness();
  admin = await signIn(h, 'admin@example.com');
});
afterAll(async () => h.close());

describe('customer search by name', () => {
  it('finds the profile name by its beginning or its whole words, in any case', async () => {
    const u = await user(h, { fullName: 'Chidinma Okonkwo' });
    for (const q of ['chi', 'Chidinma', 'CHIDINMA OKON', '  chidinma   okonkwo ', 'okonkwo', 'Okonkwo Chidinma'])
      expect(await found(q), q).toEqual([[u.id, 'name']]);
    // A later word is found whole, not by its beginning; a name is not found inside a word.
    for (const q of ['okon', 'dinma', 'chidinmaa']) expect(await found(q), q).toEqual([]);
  });

  it('finds the name an approved KYC submission verified, not a pending or rejected one', async () => {
    const u = await user(h, { fullName: 'Tunde F' });
    await approveTier2(h, u.id, 'Babatunde Olusola Fashola');
    expect(await found('babatunde ol')).toEqual([[u.id, 'name']]);
    expect(await found('fashola babatunde')).toEqual([[u.id, 'name']]);
    expect(await found('Tunde')).toEqual([[u.id, 'name']]);
    const other = await user(h);
    const now = h.clock.now();
    for (const [status, name] of [
      ['rejected', 'Zainab Rejected'],
      ['pending', 'Zainab Pending'],
    ])
      await h.app.services.db
        .execute(sql`INSERT INTO kyc_submissions (id, user_id, tier, status, files, verified_name, details, created_at, updated_at)
        VALUES (${randomUUID()}, ${other.id}, 3, ${status}, '[]'::jsonb, ${name}, '{}'::jsonb, ${now}, ${now})`);
    expect(await found('zainab')).toEqual([]);
  });

  it("takes LIKE's characters literally, and a text with a digit or an @ is no name", async () => {
    const u = await user(h, { fullName: 'Percy_Vale 100%' });
    expect(await found('percy_')).toEqual([[u.id, 'name']]);
    expect(await found('perc%')).toEqual([]);
    expect(await found('p__cy')).toEqual([]);
    expect(await found('percy_vale 100%')).toEqual([]);
    const e = await user(h, { email: 'emeka.name@example.com', fullName: 'Emeka Nwosu' });
    // Found by its e-mail's beginning: the name look-up does not run for it.
    expect(await found('emeka.name@')).toEqual([[e.id, 'email']]);
    expect(await found('nwosu')).toEqual([[e.id, 'name']]);
    expect((await call(h, 'GET', '/_serverFn/adminSearchCustomersBearerAdmin', { q: 'em' }, { token: admin.token })).statusCode).toBe(400);
  });

  it('is bounded: each owner answers at most the limit asked, in name order', async () => {
    const made = [];
    for (const name of ['Ngozi Bounded C', 'Ngozi Bounded A', 'Ngozi Bounded B']) made.push(await user(h, { fullName: name }));
    expect(await userIdsNamed(h.app.services.db, 'ngozi bounded', 2)).toEqual([made[1].id, made[2].id]);
    for (const [i, u] of made.entries()) await approveTier2(h, u.id, `Obi Bounded ${'CAB'[i]}`);
    expect(await userIdsWithVerifiedName(h.app.services.db, 'OBI BOUNDED', 2)).toEqual([made[1].id, made[2].id]);
    expect(await found('ngozi bounded')).toHaveLength(3);
  });

  it('reads each name from its indexes (migration 1202)', async () => {
    // Each condition the look-ups join with OR, alone: its range of the prefix index, or its words in the GIN index.
    const approved = sql`SELECT user_id FROM kyc_submissions WHERE status = 'approved' AND`;
    const [prefix, words, kycPrefix, kycWords] = await plans([
      sql`SELECT id FROM users WHERE lower(full_name) LIKE lower('chid%')`,
      sql`SELECT id FROM users WHERE string_to_array(lower(full_name), ' ') @> string_to_array(lower('okonkwo'), ' ')`,
      sql`${approved} lower(verified_name) LIKE lower('fash%')`,
      sql`${approved} string_to_array(lower(verified_name), ' ') @> string_to_array(lower('fashola'), ' ')`,
    ]);
    const reads = (index: string) => new RegExp(`${index}[^\n]*\n\\s+Index Cond`);
    expect(prefix).toMatch(reads('users_full_name_prefix_idx'));
    expect(words).toMatch(reads('users_full_name_words_idx'));
    expect(kycPrefix).toMatch(reads('kyc_submissions_verified_name_prefix_idx'));
    expect(kycWords).toMatch(reads('kyc_submissions_verified_name_words_idx'));
  });
});
