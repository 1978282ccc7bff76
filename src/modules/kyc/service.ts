import type { Config } from '../../config.js';
import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { answerOf, readOf, type Read } from '../../platform/reads.js';
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { Work } from '../../platform/change.js';
import { BANKS, type IdentityProvider } from '../../providers/identity.js';
import type { FileStorage } from '../../providers/storage.js';
import { createKycFiles } from './files.js';
import { createLivenessCheck } from './liveness.js';
import { createNinChecks } from './nin-checks.js';
import { createKycReview } from './review.js';
import { status } from './status.js';
import { createKycSubmissions } from './submissions.js';
import { createKycSubmit } from './submit.js';
import { namesMatch, type EligibilityRow } from './rules.js';

// The rules and shapes live in rules.ts, the operators' sorts in review.ts; importers keep using this module.
export * from './rules.js';
export { KYC_SORTS, type KycSort } from './review.js';

export interface KycDeps {
  db: Db;
  clock: Clock;
  config: Config;
  log: Logger;
  identity: IdentityProvider;
  storage: FileStorage;
  work: Work;
  /** Drops the cached session state of a user after this instance's own commit (identity/session-cache.ts). */
  forgetUser: (userId: string) => void;
}

export type KycService = ReturnType<typeof createKycService>;

export function createKycService(deps: KycDeps) {
  const { db, clock, config, log, identity, storage, work, forgetUser } = deps;
  const dataKey = config.secrets.dataEncryptionKey;
  const files = createKycFiles({ db, clock, config, storage });
  const submissions = createKycSubmissions({ db, clock, work, dataKey, files });
  const checkLiveness = createLivenessCheck({ db, clock, log, identity, storage, files });
  const nin = createNinChecks({ db, clock, dataKey });

  return {
    ...createKycSubmit({ db, identity, files, submissions, nin, checkLiveness, forgetUser }),
    ...createKycReview({ db, clock, files, submissions, ninLinkedElsewhere: nin.ninLinkedElsewhere, forgetUser }),
    listBanks: () => BANKS.map((b) => ({ code: b.code, name: b.name })),
    uploadFile: files.uploadFile,
    fileUrl: files.fileUrl,
    openSignedFile: files.openSignedFile,

    status: (userId: string) => status({ db, assertTransferEligible: (id) => assertTransferEligible(db, id) }, userId),
    eligibilityRead,
    assertTransferEligible: (userId: string, exec: Executor = db) => assertTransferEligible(db, userId, exec),
  };
}

/** What assertTransferEligible reads (the tier, the profile name and the latest approved Tier 2 name). */
function eligibilityRead(userId: string): Read<EligibilityRow> {
  return readOf(
    `kyc.eligibility:${userId}`,
    sql`SELECT json_build_object('kyc_tier', u.kyc_tier, 'full_name', u.full_name, 'verified_name',
                   (SELECT s.verified_name FROM kyc_submissions s WHERE s.user_id = u.id AND s.tier = 2 AND s.status = 'approved' ORDER BY s.seq DESC LIMIT 1))
                 FROM users u WHERE u.id = ${userId}`,
  );
}

/**
 * Spec 5.8: transfers and the dedicated virtual account need Tier 2 and a Tier 2 record whose name matches the
 * current profile name. Throws KYC_TIER_REQUIRED (403) otherwise; answers that profile name (a transfer names its
 * sender by it). On eligibilityRead's answer: the request's read-ahead's when it read it (registry `readAhead`),
 * else read now.
 */
async function assertTransferEligible(db: Db, userId: string, exec: Executor = db): Promise<{ fullName: string | null }> {
  const u = await answerOf(exec, eligibilityRead(userId));
  if (!u) throw notFound('User');
  if (u.kyc_tier < 2)
    throw new AppError('KYC_TIER_REQUIRED', 'KYC Tier 2 (NIN and phone) is required for transfers and a dedicated account');
  const verified = u.verified_name;
  if (!verified)
    throw new AppError('KYC_TIER_REQUIRED', 'An approved Tier 2 (NIN) record is required for transfers and a dedicated account');
  if (!namesMatch(verified, u.full_name)) {
    throw new AppError(
      'KYC_TIER_REQUIRED',
      'Your profile name no longer matches the name on your verified NIN record; change it back to use transfers',
    );
  }
  return { fullName: u.full_name };
}
