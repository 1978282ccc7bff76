import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../db/client.js';
import { DAY, type Clock } from '../../kernel/clock.js';

export const APPROVAL_ACTIONS = ['wallet_adjustment', 'vtu_resolution', 'settlement_correction'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/** Settings keys on the wire, by action. */
export const THRESHOLD_KEYS = {
  wallet_adjustment: 'walletAdjustment',
  vtu_resolution: 'vtuResolution',
  settlement_correction: 'settlementCorrection',
} as const satisfies Record<ApprovalAction, string>;
export type ThresholdKey = (typeof THRESHOLD_KEYS)[ApprovalAction];
export type Thresholds = Record<ApprovalAction, bigint>;

/** Defaults (kobo): adjustments under ₦1,000 by one operator take effect at once; every resolution and correction waits. */
export const DEFAULT_THRESHOLDS: Thresholds = {
  wallet_adjustment: 100_000n,
  vtu_resolution: 0n,
  settlement_correction: 0n,
};

/** How long a weakened threshold waits when there is no second admin to approve it (issue 41). */
export const WEAKENING_DELAY_MS = DAY;

/** A threshold raised by the only admin, waiting for its time. */
export interface ScheduledThreshold {
  action: ApprovalAction;
  threshold: bigint;
  at: Date;
}

/**
 * The thresholds in force now, and those scheduled: a raised threshold with one admin replaces the stored one when its
 * time comes (read here by the clock, so no job has to run for it).
 */
export async function readThresholds(exec: Executor, clock: Clock): Promise<{ now: Thresholds; scheduled: ScheduledThreshold[] }> {
  const list = await rows<{ action: string; threshold: string; scheduled_threshold: string | null; scheduled_at: Date | null }>(
    exec,
    sql`SELECT action, threshold::text AS threshold, scheduled_threshold::text AS scheduled_threshold, scheduled_at FROM approval_settings`,
  );
  const now = { ...DEFAULT_THRESHOLDS };
  const scheduled: ScheduledThreshold[] = [];
  for (const r of list) {
    if (!(APPROVAL_ACTIONS as readonly string[]).includes(r.action)) continue;
    const action = r.action as ApprovalAction;
    now[action] = BigInt(r.threshold);
    if (r.scheduled_threshold === null || !r.scheduled_at) continue;
    const at = new Date(r.scheduled_at);
    if (at <= clock.now()) now[action] = BigInt(r.scheduled_threshold);
    else scheduled.push({ action, threshold: BigInt(r.scheduled_threshold), at });
  }
  return { now, scheduled };
}

/** Sets thresholds now; a scheduled raise of the same action is dropped (the newest decision stands). */
export async function writeThresholds(exec: Executor, operatorId: string, at: Date, values: Partial<Thresholds>) {
  for (const a of APPROVAL_ACTIONS) {
    const v = values[a];
    if (v === undefined) continue;
    await exec.execute(sql`INSERT INTO approval_settings (action, threshold, updated_by, updated_at) VALUES (${a}, ${v}, ${operatorId}, ${at})
                           ON CONFLICT (action) DO UPDATE SET threshold = EXCLUDED.threshold, updated_by = EXCLUDED.updated_by,
                             updated_at = EXCLUDED.updated_at, scheduled_threshold = NULL, scheduled_at = NULL, scheduled_by = NULL`);
  }
}

/** Schedules raised thresholds for `at`; until then the current ones stay in force. */
export async function scheduleThresholds(
  exec: Executor,
  operatorId: string,
  now: Date,
  at: Date,
  current: Thresholds,
  values: Partial<Thresholds>,
) {
  for (const a of APPROVAL_ACTIONS) {
    const v = values[a];
    if (v === undefined) continue;
    await exec.execute(sql`INSERT INTO approval_settings (action, threshold, updated_by, updated_at, scheduled_threshold, scheduled_at, scheduled_by)
                           VALUES (${a}, ${current[a]}, ${operatorId}, ${now}, ${v}, ${at}, ${operatorId})
                           ON CONFLICT (action) DO UPDATE SET scheduled_threshold = EXCLUDED.scheduled_threshold,
                             scheduled_at = EXCLUDED.scheduled_at, scheduled_by = EXCLUDED.scheduled_by`);
  }
}

/** Splits a change into what weakens a control (a raised threshold) and what does not. */
export function splitChange(current: Thresholds, values: Partial<Thresholds>) {
  const weaker: Partial<Thresholds> = {};
  const stronger: Partial<Thresholds> = {};
  for (const a of APPROVAL_ACTIONS) {
    const v = values[a];
    if (v === undefined) continue;
    if (v > current[a]) weaker[a] = v;
    else stronger[a] = v;
  }
  return { weaker, stronger };
}
