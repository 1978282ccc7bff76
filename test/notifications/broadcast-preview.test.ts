import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { one } from '../../src/db/client.js';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { setKycTier } from '../helpers/factories.js';

/**
 * Issue 44: a broadcast's preview says what customers will see, how many accounts its audience holds and when it
 * starts, and writes nothing; the count is the number of accounts that then see the broadcast.
 */
let h: Harness;
let admin: TestUser;
const customers: TestUser[] = [];
const N = '/_serverFn/';
const preview = (data: Record<string, unknown>, token = admin.token) =>
  call(h, 'POST', `${N}adminPreviewBroadcastBearerAdmin`, data, { token });
const broadcastsCount = async () => (await one<{ n: number }>(h.app.services.db, sql`SELECT count(*)::int AS n FROM broadcasts`))!.n;

beforeAll(async () => {
  h = await createHarness();
  admin = await signIn(h, 'admin@example.com');
  for (let i = 0; i < 4; i++) customers.push(await signIn(h));
  await setKycTier(h, customers[0].id, 2);
  await setKycTier(h, customers[1].id, 3);
});
afterAll(async () => h.close());

describe('adminPreviewBroadcast', () => {
  it('shows the message, counts the audience the inbox will show it to, and writes nothing', async () => {
    const before = await broadcastsCount();
    const accounts = (await one<{ n: number }>(h.app.services.db, sql`SELECT count(*)::int AS n FROM users`))!.n;
    const everyone = await preview({ title: 'Data bonus', body: 'Double data this weekend', poll: { options: ['Yes', 'No'] } });
    expect(everyone.statusCode).toBe(200);
    expect(everyone.json()).toMatchObject({
      message: { title: 'Data bonus', body: 'Double data this weekend', poll: { question: 'Data bonus', options: ['Yes', 'No'] } },
      audienceCount: accounts,
      scheduled: false,
      endsAt: null,
    });
    const tier2 = (await preview({ title: 'Tier 2 perks', body: 'x', audience: { minKycTier: 2 } })).json();
    expect(tier2.audienceCount).toBe(2);
    expect(await broadcastsCount()).toBe(before);

    // The count is who then sees it: the tier-2 broadcast reaches exactly the customers the preview counted.
    const created = await call(
      h,
      'POST',
      `${N}adminCreateBroadcastBearerAdmin`,
      { title: 'Tier 2 perks', body: 'x', audience: { minKycTier: 2 } },
      {
        token: admin.token,
      },
    );
    const id = created.json().broadcast.id;
    let seeing = 0;
    for (const c of customers) {
      const items = (await call(h, 'GET', `${N}listBroadcastsBearerNotifications`, {}, { token: c.token })).json().items;
      if (items.some((b: { id: string }) => b.id === id)) seeing++;
    }
    expect(seeing).toBe(tier2.audienceCount);
  });

  it('says when a scheduled broadcast starts, and refuses an end before its start', async () => {
    const at = new Date(h.clock.now().getTime() + 2 * 3600_000);
    const later = (await preview({ title: 't', body: 'b', startsAt: at.toISOString().replace('Z', '+00:00') })).json();
    expect(later).toMatchObject({ scheduled: true, startsAt: at.toISOString() });
    const bad = await preview({ title: 't', body: 'b', startsAt: at.toISOString(), endsAt: new Date(at.getTime() - 1000).toISOString() });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('is for operators with the support role', async () => {
    expect((await preview({ title: 't', body: 'b' }, customers[2].token)).statusCode).toBe(403);
  });
});
