import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { DAY, type Clock } from '../../kernel/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { IdentityProvider, LivenessCheck, LivenessImage } from '../../providers/identity.js';
import type { FileStorage } from '../../providers/storage.js';
import type { KycFiles } from './files.js';
import { LIVENESS_ADVICE, LIVENESS_FAILS_BEFORE_REVIEW, LIVENESS_PASS_SCORE, type LivenessDetails } from './rules.js';

/** What the automatic check decided for a Tier 1 submission. */
export interface LivenessVerdict {
  decision: 'approve' | 'reject' | 'review';
  details: { liveness: LivenessDetails };
  /** The provider's answer, stored encrypted with the submission. */
  payload?: unknown;
  /** On reject: what the customer should do differently. */
  rejectReason?: string;
}

/**
 * Tier 1 in seconds (issue 29): the selfie frames go to the identity provider's liveness check. A confident pass
 * approves at once, a fail is refused with advice the customer can act on, anything else (the provider unsure, a
 * low score, the provider down or too slow, repeated fails) waits for an operator. Nothing passes without a
 * provider's confident "pass".
 */
export function createLivenessCheck(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  identity: IdentityProvider;
  storage: FileStorage;
  files: KycFiles;
}) {
  const { db, clock, log, identity, storage, files } = deps;

  /** The frames as the provider receives them; the caller has checked they are the user's own images. */
  async function images(frames: string[]): Promise<LivenessImage[]> {
    const out: LivenessImage[] = [];
    for (const path of frames) {
      const f = await files.fileRow(db, path);
      const source = f ? await storage.open(f.storage_key, f.content_type) : null;
      if (!f || !source) throw new AppError('NOT_FOUND', `File ${path} not found; upload it with uploadKycFile first`);
      out.push({ contentType: f.content_type, source });
    }
    return out;
  }

  async function recentFails(userId: string): Promise<number> {
    const r = await one<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM kyc_submissions
          WHERE user_id = ${userId} AND tier = 1 AND status = 'rejected' AND reviewed_by IS NULL
            AND created_at > ${new Date(clock.now().getTime() - DAY)}`,
    );
    return r?.n ?? 0;
  }

  return async function checkLiveness(userId: string, frames: string[]): Promise<LivenessVerdict> {
    const sent = await images(frames);
    let answer: LivenessCheck;
    try {
      answer = await identity.checkLiveness({ reference: userId, images: sent });
    } catch (err) {
      // Down, too slow or answering badly: a person looks at the frames; the customer is never passed blindly.
      log.warn({ err: err instanceof AppError ? err.message : String(err), userId }, 'liveness check unavailable; sent to review');
      return { decision: 'review', details: { liveness: { outcome: 'unavailable', review: 'unavailable' } } };
    }
    const liveness: LivenessDetails = {
      outcome: answer.outcome,
      ...(answer.score !== null ? { score: answer.score } : {}),
      ...(answer.reason ? { reason: answer.reason } : {}),
    };
    if (answer.outcome === 'fail') {
      const advice = LIVENESS_ADVICE[answer.reason ?? 'unknown'];
      return { decision: 'reject', details: { liveness }, payload: answer.payload, rejectReason: advice };
    }
    if (answer.outcome === 'review')
      return { decision: 'review', details: { liveness: { ...liveness, review: 'provider' } }, payload: answer.payload };
    if (answer.score === null || answer.score < LIVENESS_PASS_SCORE) {
      return { decision: 'review', details: { liveness: { ...liveness, review: 'low_score' } }, payload: answer.payload };
    }
    if ((await recentFails(userId)) >= LIVENESS_FAILS_BEFORE_REVIEW) {
      return { decision: 'review', details: { liveness: { ...liveness, review: 'repeated_fails' } }, payload: answer.payload };
    }
    return { decision: 'approve', details: { liveness }, payload: answer.payload };
  };
}

export type KycLivenessCheck = ReturnType<typeof createLivenessCheck>;
