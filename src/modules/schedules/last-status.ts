import type { Executor } from '../../db/client.js';
import { outcomesOf } from '../vtu/api.js';

/**
 * A schedule whose last run's purchase was still processing shows that purchase's status now, once VTU settles it
 * (read time, so no second writer has to keep it in step). The schedule's row names that purchase
 * (`last_purchase_id`, only while its last status is processing); vtu answers their statuses in one statement, and
 * none is sent when no row waits.
 */
export async function withLastStatus<T extends { last_status: string | null; last_purchase_id: string | null }>(
  exec: Executor,
  list: T[],
): Promise<T[]> {
  const waiting = [...new Set(list.flatMap((s) => (s.last_purchase_id ? [s.last_purchase_id] : [])))];
  if (!waiting.length) return list;
  const now = await outcomesOf(exec, waiting);
  return list.map((s) => (s.last_purchase_id ? { ...s, last_status: now.get(s.last_purchase_id)?.status ?? s.last_status } : s));
}
