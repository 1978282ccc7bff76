import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import { AppError } from '../../kernel/errors.js';
import { apiKeyLevel } from '../vtu/api.js';
import { MAX_KEYS } from './inputs.js';
import { insertKey, tested, worldOf } from './key-rows.js';
import { shadowOwner } from './test-mode.js';
import type { ApiKeyView, DevelopersDeps, NewKey } from './deps.js';

/**
 * A new key; its secret is in this answer only. A test key needs KYC Tier 1 at any level (trying the API comes before
 * becoming a reseller); a live key needs Tier 2 and a price level that allows keys (403 naming the levels that do).
 */
export async function createKey(deps: DevelopersDeps, user: AuthUser, k: NewKey): Promise<{ key: ApiKeyView; secret: string }> {
  const { db, clock } = deps;
  if (k.mode !== worldOf(deps)) {
    // A test key is made in the test world, for the customer's shadow account there.
    const tw = await tested(deps);
    return tw.createKey({ ...user, id: await tw.shadow.ensure(await shadowOwner(db, user)) }, k);
  }
  if (k.mode === 'live' && user.kycTier < 2)
    throw new AppError('KYC_TIER_REQUIRED', 'Live API keys need KYC Tier 2; test keys need Tier 1');
  if (k.mode === 'live') {
    const lvl = await apiKeyLevel(db, user.id);
    if (!lvl.allowed)
      throw new AppError(
        'FORBIDDEN',
        lvl.allowing.length
          ? `Live API keys need a price level that allows them (${lvl.allowing.join(', ')}); you are at ${lvl.level}. Test keys are open to you now.`
          : `Live API keys are not offered at any price level yet; you are at ${lvl.level}. Test keys are open to you now.`,
      );
  }
  const now = clock.now();
  const held = await one<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM api_keys
        WHERE user_id = ${user.id} AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${now})`,
  );
  if (held!.n >= MAX_KEYS) throw new AppError('LIMIT_EXCEEDED', `At most ${MAX_KEYS} API keys at once: revoke one first`);
  return insertKey(deps, db, user.id, k);
}
