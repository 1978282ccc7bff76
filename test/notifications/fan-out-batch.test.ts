import { notify } from '../helpers/notices.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FAN_OUT_JOBS_PER_RUN } from '../../src/modules/notifications/delivery.js';
import { DELIVER_JOB } from '../../src/modules/notifications/notifier.js';
import { createHarness, signIn, type Harness } from '../helpers/harness.js';
import { statementsOfEither } from '../helpers/statements.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

it('the fan-outs of many separate changes are worked together: one read per claim of the delivery lane, every channel job once', async () => {
  const { db, jobs } = h.app.services;
  const u = await signIn(h);
  // Thirty changes, each with its own notification and its own fan-out job.
  const changes = FAN_OUT_JOBS_PER_RUN + 10;
  for (let i = 0; i < changes; i++) await notify(h, undefined, [{ userId: u.id, kind: 'general', title: `t${i}`, body: `b${i}` }]);
  const queued = async () =>
    (
      (await db.execute(sql`SELECT count(*)::int AS n FROM jobs WHERE queue = ${DELIVER_JOB} AND status = 'queued'`)).rows[0] as {
        n: number;
      }
    ).n;
  expect(await queued()).toBe(changes);
  const texts = await statementsOfEither(() => jobs.drain());
  expect(await queued()).toBe(0);
  // Two claims of the lane (20, then 10): two reads of the notifications, not thirty.
  expect(texts.filter((t) => t.includes('FROM notifications n JOIN users u')).length).toBe(Math.ceil(changes / FAN_OUT_JOBS_PER_RUN));
  // Every notification got its channel jobs, the same number each (no notification left out or doubled by the batching).
  const perNotification = await db.execute(
    sql`SELECT n.id, count(j.id)::int AS jobs FROM notifications n LEFT JOIN jobs j ON j.queue <> ${DELIVER_JOB} AND j.singleton_key LIKE '%' || n.id::text || '%'
        WHERE n.user_id = ${u.id} GROUP BY n.id`,
  );
  const counts = (perNotification.rows as { jobs: number }[]).map((r) => r.jobs);
  expect(counts).toHaveLength(changes);
  expect(counts[0]).toBeGreaterThan(0);
  expect(new Set(counts)).toEqual(new Set([counts[0]]));
});
