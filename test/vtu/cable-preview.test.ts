import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { VTU_ENV } from './helpers.js';

// Issue 45: a price change of cable plans is previewed against one cable provider's plans (the console sends it).
let h: Harness;
let admin: TestUser;
const preview = (data: Record<string, unknown>) =>
  call(h, 'POST', '/_serverFn/adminPreviewPriceChangeBearerAdmin', data, { token: admin.token });

beforeAll(async () => {
  h = await createHarness({ env: { ...VTU_ENV, ADMIN_EMAILS: 'admin@example.com' } });
  admin = await signIn(h, 'admin@example.com');
}, 120_000);
afterAll(async () => h?.close());

describe('adminPreviewPriceChange for cable', () => {
  it("lists the named cable provider's plans before and after; without the provider it says which field is missing", async () => {
    const bare = await preview({ level: 'agent', service: 'cable', kind: 'flat', value: 25 });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().error.issues[0].path).toBe('identifier');
    const res = await preview({ level: 'agent', service: 'cable', kind: 'flat', value: 25, identifier: 'DSTV' });
    expect(res.statusCode, res.body).toBe(200);
    const { changes } = res.json();
    expect(changes.length).toBeGreaterThan(0);
    for (const c of changes) expect(c.after).toBeCloseTo(c.wholesale + 25, 2);
  });
});
