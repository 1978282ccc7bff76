import type { Executor } from '../../db/client.js';
import { reportsAbout, type LinkedReport } from '../reports/api.js';
import { aboutKey, threadsAbout, type LinkedThread } from '../support/api.js';
import { purchaserOf } from '../vtu/api.js';

/**
 * A purchase's case (issue 44): the customer's transaction reports of its reference and the support threads that name
 * it, each from its owner module, for the purchase's page in the console. Empty for a reference no purchase has.
 */
export async function purchaseCase(
  db: Executor,
  reference: string,
): Promise<{ userId: string | null; reports: LinkedReport[]; threads: LinkedThread[] }> {
  const userId = await purchaserOf(db, reference);
  if (!userId) return { userId: null, reports: [], threads: [] };
  const [reports, threads] = await Promise.all([reportsAbout(db, userId, reference), threadsAbout(db, [{ userId, reference }])]);
  return { userId, reports, threads: threads.get(aboutKey(userId, reference)) ?? [] };
}
