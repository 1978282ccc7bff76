import type { ApprovalRequestInput } from './actions.js';
import { approve, reject } from './decide.js';
import type { ApprovalDeps } from './deps.js';
import type { ApprovalSort } from './inputs.js';
import { get, list, withContext } from './read-requests.js';
import { getSettings, updateSettings } from './settings.js';
import { submit } from './submit.js';
import type { ThresholdKey } from './thresholds.js';

export type { ApprovalRequestInput } from './actions.js';
export { APPROVAL_ACTIONS, DEFAULT_THRESHOLDS, THRESHOLD_KEYS, type ApprovalAction } from './thresholds.js';
export { APPROVAL_TTL_MS } from './requests.js';
export { CHECKER_ROLE_AGE_MS } from './decide.js';
export { DIRECT_WINDOW_MS } from './submit.js';

export type ApprovalService = ReturnType<typeof createApprovalService>;

/** Four-eyes on operators' money actions (requests.ts tells how a request is made, approved and expires). */
export function createApprovalService(deps: ApprovalDeps) {
  return {
    submit: (makerId: string, input: Exclude<ApprovalRequestInput, { action: 'threshold_change' }>) => submit(deps, makerId, input),
    list: (input: { status?: 'pending' | 'approved' | 'rejected' | 'expired'; sort?: ApprovalSort; limit: number; offset: number }) =>
      list(deps, input),
    get: (id: string) => get(deps, id),
    approve: async (checkerId: string, id: string, reason: string | undefined) =>
      withContext(deps, await approve(deps, checkerId, id, reason)),
    reject: async (checkerId: string, id: string, reason: string) => withContext(deps, await reject(deps, checkerId, id, reason)),
    getSettings: () => getSettings(deps),
    updateSettings: (operatorId: string, patch: Partial<Record<ThresholdKey, bigint>>, reason: string) =>
      updateSettings(deps, operatorId, patch, reason),
  };
}
