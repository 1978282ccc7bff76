import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { applyPatch, normalisePreferences, readPreferences, type PreferencesPatch } from './preferences.js';
import type { SettingsDeps } from './deps.js';

/** The user's preferences, defaults filled in. */
export async function getPreferences({ db }: SettingsDeps, userId: string) {
  return { preferences: await readPreferences(db, userId) };
}

/** Merges a partial change into the user's preferences. */
export async function updatePreferences({ db, clock }: SettingsDeps, userId: string, patch: PreferencesPatch) {
  const now = clock.now();
  const preferences = await db.transaction(async (tx) => {
    // Lock the row (created if missing) so two partial updates merge instead of overwriting each other.
    await tx.execute(sql`INSERT INTO user_preferences (user_id, prefs, updated_at) VALUES (${userId}, '{}'::jsonb, ${now})
                         ON CONFLICT (user_id) DO NOTHING`);
    const row = await one<{ prefs: unknown }>(tx, sql`SELECT prefs FROM user_preferences WHERE user_id = ${userId} FOR UPDATE`);
    const next = applyPatch(normalisePreferences(row?.prefs), patch);
    await tx.execute(
      sql`UPDATE user_preferences SET prefs = ${JSON.stringify(next)}::jsonb, updated_at = ${now} WHERE user_id = ${userId}`,
    );
    return next;
  });
  return { preferences };
}
