import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { today } from './key-rows.js';
import type { DevelopersDeps } from './deps.js';

/**
 * Adds `kobo` to the key's spend today, refused (LIMIT_EXCEEDED) when it would pass the key's daily limit or the
 * limit is already reached. `adjustSpend` then corrects it to what the request really charged.
 */
export async function reserveSpend(deps: DevelopersDeps, keyId: string, kobo: bigint): Promise<void> {
  const { db } = deps;
  const day = today(deps);
  const spent = sql`(CASE WHEN spent_day = ${day}::date THEN spent_today ELSE 0 END)`;
  const r = await one<{ id: string }>(
    db,
    sql`UPDATE api_keys SET spent_day = ${day}::date, spent_today = ${spent} + ${kobo.toString()}::bigint
        WHERE id = ${keyId} AND ${spent} < daily_limit AND ${spent} + ${kobo.toString()}::bigint <= daily_limit
        RETURNING id`,
  );
  if (!r) throw new AppError('LIMIT_EXCEEDED', "This API key's daily spend limit would be passed");
}

/** adjustSpend: corrects the key's spend today by what the request really charged (reserveSpend reserved). */
export async function adjustSpend(deps: DevelopersDeps, keyId: string, deltaKobo: bigint): Promise<void> {
  if (deltaKobo === 0n) return;
  await rows(
    deps.db,
    sql`UPDATE api_keys SET spent_today = GREATEST(0, spent_today + ${deltaKobo.toString()}::bigint)
        WHERE id = ${keyId} AND spent_day = ${today(deps)}::date`,
  );
}
