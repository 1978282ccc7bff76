import type { Db, Executor } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { Change, Work } from '../../platform/change.js';
import { claimCheckin, getCheckinStatus, withdrawCheckin } from './checkins.js';
import { ackMilestone, getPendingMilestones } from './milestones.js';
import { forfeitLockedBonuses, recordReferral } from './referral-events.js';
import { onVtuSucceeded, recordPurchases, type PurchaseEvent } from './referral-rewards.js';
import { ensureCode, getMyReferralStatus } from './referral-status.js';
import type { GrowthSettingsStore } from './settings.js';

export type { PurchaseEvent } from './referral-rewards.js';

export type GrowthService = ReturnType<typeof createGrowthService>;

/** Growth's use cases (referrals, milestones, check-ins), each in its own file, bound to the module's dependencies. */
export function createGrowthService(deps: { db: Db; clock: Clock; ledger: Ledger; work: Work; settings: GrowthSettingsStore }) {
  return {
    ensureCode: (userId: string) => ensureCode(deps, userId),
    recordReferral: (change: Change, e: { userId: string; referralCode?: string }) => recordReferral(deps.clock, change, e),
    onAccountClosed: (exec: Executor, e: { userId: string }) => forfeitLockedBonuses(deps.work, exec, e),
    recordPurchases: (list: readonly PurchaseEvent[]) => recordPurchases(deps, list),
    onVtuSucceeded: (exec: Executor, e: PurchaseEvent, opts?: { recorded?: boolean }) => onVtuSucceeded(deps, exec, e, opts),
    referralStatus: (userId: string) => getMyReferralStatus(deps, userId),
    pendingMilestones: (userId: string) => getPendingMilestones(deps, userId),
    ackMilestone: (userId: string, threshold: number) => ackMilestone(deps, userId, threshold),
    checkinStatus: (userId: string) => getCheckinStatus(deps, userId),
    claimCheckin: (userId: string) => claimCheckin(deps, userId),
    withdrawCheckin: (userId: string) => withdrawCheckin(deps, userId),
  };
}
