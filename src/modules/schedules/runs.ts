import { sql } from 'drizzle-orm';
import { rows } from '../../db/client.js';
import { outcomesOf } from '../vtu/api.js';
import type { ScheduleDeps } from './deps.js';
import { getOwn } from './model.js';

/** A schedule's runs, newest slot first, with the status and failure of a purchase still in progress. */
export async function listRuns({ db }: ScheduleDeps, userId: string, scheduleId: string, limit: number, offset: number) {
  await getOwn(db, userId, scheduleId);
  type Run = { id: string; slot: Date; status: string; vtu_transaction_id: string | null; created_at: Date };
  const list = await rows<Run & { error_code: string | null; error_message: string | null }>(
    db,
    sql`SELECT id::text AS id, slot, status, vtu_transaction_id::text AS vtu_transaction_id, error_code, error_message, created_at
        FROM schedule_runs WHERE schedule_id = ${scheduleId} ORDER BY slot DESC LIMIT ${limit + 1} OFFSET ${offset}`,
  );
  // A run's purchase, read only when the run still waits on it or it holds the reason: its status and failure.
  const waiting = list.slice(0, limit).filter((r) => r.vtu_transaction_id && (r.status === 'processing' || r.error_message === null));
  const v = await outcomesOf(db, [...new Set(waiting.map((r) => r.vtu_transaction_id!))]);
  return {
    items: list.slice(0, limit).map((r) => ({
      id: r.id,
      slot: new Date(r.slot).toISOString(),
      status: r.status === 'processing' ? (v.get(r.vtu_transaction_id!)?.status ?? r.status) : r.status,
      transactionId: r.vtu_transaction_id,
      errorCode: r.error_code,
      errorMessage: r.error_message ?? v.get(r.vtu_transaction_id!)?.failureReason ?? null,
      createdAt: new Date(r.created_at).toISOString(),
    })),
    limit,
    offset,
    hasMore: list.length > limit,
  };
}
