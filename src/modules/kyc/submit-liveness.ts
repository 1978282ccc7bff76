import { IMAGE_TYPES } from './rules.js';
import type { KycSubmitDeps } from './deps.js';

/**
 * Tier 1: liveness frames (submitTier3Kyc), checked by the identity provider at once (liveness.ts): approved,
 * refused with advice, or left pending for an operator. The new tier gates the next request at once.
 */
export async function submitLiveness(deps: KycSubmitDeps, userId: string, input: { frames: string[] }) {
  const { db, checkLiveness, forgetUser } = deps;
  const { ownFiles } = deps.files;
  const { userFacts, assertCanSubmit, record } = deps.submissions;
  await assertCanSubmit(db, 1, await userFacts(db, userId));
  const frames = input.frames.map((path) => ({ role: 'frame' as const, path }));
  await ownFiles(db, userId, frames, IMAGE_TYPES);
  const verdict = await checkLiveness(userId, input.frames);
  const view = await record({
    userId,
    tier: 1,
    files: frames,
    details: verdict.details,
    payload: verdict.payload,
    rejectReason: verdict.rejectReason,
    approve: verdict.decision === 'approve',
  });
  if (view.status === 'approved') forgetUser(userId);
  return view;
}
