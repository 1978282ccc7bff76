import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { user } from '../helpers/factories.js';

// Issue 45: the console's resellers read the test world for test keys only once it exists. Before any test key, the
// list answers from the live world and does not build the test world (a migration of a database of its own, seconds
// on a busy machine: the console's screen waited on it).
let h: Harness;
let admin: TestUser;
let reseller: TestUser;

beforeAll(async () => {
  h = await createHarness({ env: { ADMIN_EMAILS: 'admin@example.com' } });
  admin = await signIn(h, 'admin@example.com');
  reseller = await user(h, { tier: 2, level: 'reseller' });
  const made = await call(
    h,
    'POST',
    '/_serverFn/createApiKeyBearerDevelopers',
    { name: 'shop', mode: 'live', scopes: ['read'] },
    { token: reseller.token },
  );
  expect(made.statusCode, made.body).toBe(200);
});
afterAll(async () => h.close());

it('lists the live key holders without building a test world that holds nothing', async () => {
  const world = h.app.services.testWorld!;
  expect(world.started()).toBe(false);
  const listed = await call(h, 'GET', '/_serverFn/adminListResellersBearerAdmin', {}, { token: admin.token });
  expect(listed.statusCode, listed.body).toBe(200);
  const mine = listed.json().items.find((r: { email: string }) => r.email === reseller.email);
  expect(mine.keys.map((k: { mode: string }) => k.mode)).toEqual(['live']);
  expect(world.started()).toBe(false);
  // A test key builds it, and the list then reads it.
  const tried = await call(
    h,
    'POST',
    '/_serverFn/createApiKeyBearerDevelopers',
    { name: 'try', mode: 'test', scopes: ['read'] },
    { token: reseller.token },
  );
  expect(tried.statusCode, tried.body).toBe(200);
  expect(world.started()).toBe(true);
  const again = (await call(h, 'GET', '/_serverFn/adminListResellersBearerAdmin', {}, { token: admin.token })).json();
  const modes = again.items.find((r: { email: string }) => r.email === reseller.email).keys.map((k: { mode: string }) => k.mode);
  expect(modes.sort()).toEqual(['live', 'test']);
});
