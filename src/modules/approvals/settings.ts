import { toNaira } from '../../kernel/money.js';
import { target } from './actions.js';
import type { ApprovalDeps } from './deps.js';
import { insertRequest } from './requests.js';
import {
  APPROVAL_ACTIONS,
  THRESHOLD_KEYS,
  WEAKENING_DELAY_MS,
  readThresholds,
  scheduleThresholds,
  splitChange,
  writeThresholds,
  type ThresholdKey,
  type Thresholds,
} from './thresholds.js';

/** The four-eyes thresholds in naira, and the raised ones scheduled to take effect. */
export async function getSettings({ db, clock }: Pick<ApprovalDeps, 'db' | 'clock'>) {
  const { now, scheduled } = await readThresholds(db, clock);
  const values = Object.fromEntries(APPROVAL_ACTIONS.map((a) => [THRESHOLD_KEYS[a], toNaira(now[a])])) as Record<ThresholdKey, number>;
  return {
    ...values,
    scheduled: scheduled.map((s) => ({ setting: THRESHOLD_KEYS[s.action], value: toNaira(s.threshold), at: s.at.toISOString() })),
  };
}

/**
 * Issue 41: a lowered threshold (a stronger control) applies at once; a raised one weakens a control, so with two
 * or more admins it waits as a request another admin approves, and with one admin it takes effect after
 * WEAKENING_DELAY_MS (the registry announces the change to every admin by e-mail).
 */
export async function updateSettings(deps: ApprovalDeps, operatorId: string, patch: Partial<Record<ThresholdKey, bigint>>, reason: string) {
  const { db, clock, operators } = deps;
  const at = clock.now();
  const values: Partial<Thresholds> = {};
  for (const a of APPROVAL_ACTIONS) if (patch[THRESHOLD_KEYS[a]] !== undefined) values[a] = patch[THRESHOLD_KEYS[a]];
  const current = (await readThresholds(db, clock)).now;
  const { weaker, stronger } = splitChange(current, values);
  await writeThresholds(db, operatorId, at, stronger);
  let change: { status: 'applied' | 'pending' | 'scheduled'; approvalId: string | null; effectiveAt: string | null } = {
    status: 'applied',
    approvalId: null,
    effectiveAt: null,
  };
  if (Object.keys(weaker).length) {
    if ((await operators.adminAddresses()).length >= 2) {
      const input = { action: 'threshold_change' as const, thresholds: weaker, reason };
      const approval = await insertRequest(deps, operatorId, 'threshold_change', await target(deps, input, operatorId));
      change = { status: 'pending', approvalId: approval.id, effectiveAt: null };
    } else {
      const effectiveAt = new Date(at.getTime() + WEAKENING_DELAY_MS);
      await scheduleThresholds(db, operatorId, at, effectiveAt, current, weaker);
      change = { status: 'scheduled', approvalId: null, effectiveAt: effectiveAt.toISOString() };
    }
  }
  return { ...(await getSettings(deps)), change };
}
