import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import type { ApiScope, AuthUser } from '../../kernel/actor.js';
import { HOUR } from '../../kernel/clock.js';
import { notFound } from '../../kernel/errors.js';
import { toNaira } from '../../kernel/money.js';
import { COLUMNS, insertKey, tested, type KeyRow } from './key-rows.js';
import type { KeyMode } from './keys.js';
import type { ApiKeyView, DevelopersDeps } from './deps.js';

/**
 * A new secret with the same settings; the old one keeps working for `overlapHours` (0: ends now), so a
 * deployment can switch without an outage.
 */
export async function rollKey(
  deps: DevelopersDeps,
  user: Pick<AuthUser, 'id' | 'email'>,
  id: string,
  overlapHours: number,
): Promise<{ key: ApiKeyView; secret: string }> {
  const { db, clock } = deps;
  const userId = user.id;
  const mine = await one<{ id: string }>(db, sql`SELECT id FROM api_keys WHERE id = ${id} AND user_id = ${userId}`);
  if (!mine) {
    const tw = await tested(deps);
    return tw.rollKey({ id: await tw.shadow.idOf(user.email), email: user.email }, id, overlapHours);
  }
  return db.transaction(async (tx) => {
    const now = clock.now();
    const old = await one<KeyRow>(
      tx,
      sql`SELECT ${COLUMNS} FROM api_keys WHERE id = ${id} AND user_id = ${userId} AND revoked_at IS NULL
            AND (expires_at IS NULL OR expires_at > ${now}) FOR UPDATE`,
    );
    if (!old) throw notFound('API key');
    const ends = new Date(now.getTime() + overlapHours * HOUR);
    await rows(
      tx,
      overlapHours === 0
        ? sql`UPDATE api_keys SET revoked_at = ${now} WHERE id = ${id}`
        : sql`UPDATE api_keys SET expires_at = ${ends} WHERE id = ${id}`,
    );
    return insertKey(deps, tx, userId, {
      name: old.name,
      mode: old.mode as KeyMode,
      scopes: old.scopes as ApiScope[],
      allowedIps: old.allowed_ips ?? undefined,
      dailyLimit: old.daily_limit === null ? undefined : toNaira(old.daily_limit),
      rolledFrom: id,
    });
  });
}
