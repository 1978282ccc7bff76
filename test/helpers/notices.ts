import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../src/db/client.js';
import type { Part } from '../../src/db/change-statements.js';
import type { NotificationInput } from '../../src/kernel/notification.js';
import type { Harness } from './harness.js';

/** Notices written as one change (in `exec`'s transaction, or alone): their ids, in order. */
export async function notify(h: Harness, exec: Executor | undefined, list: NotificationInput[]): Promise<string[]> {
  const { work, notifier } = h.app.services;
  const ids = list.map(() => randomUUID());
  const change = work.change(exec);
  notifier.write(change, list, ids);
  await change.commit();
  return ids;
}

/** A ledger part writing inbox rows (no fan-out job), for the ledger's own tests of parts. */
export const noticeRowsPart = (list: { userId: string; title: string; body: string }[]): Part => ({
  statement: (when) =>
    sql`INSERT INTO notifications (id, user_id, kind, title, body, created_at)
        SELECT gen_random_uuid(), x."userId", 'general', x.title, x.body, now()
        FROM ${when}, jsonb_to_recordset(${JSON.stringify(list)}::jsonb) AS x("userId" uuid, title text, body text)`,
});
