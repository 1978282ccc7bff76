import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { DAY, MINUTE } from '../../kernel/clock.js';
import type { PhoneOwner } from '../identity/api.js';
import type { SessionRow, UssdDeps, UssdRequest } from './deps.js';
import { startState } from './menu.js';
import { wire } from './screens.js';
import { ussdLanguage } from './texts.js';

const SESSION_KEEP_MS = DAY;

/** Counts the request against the number's minute; false past USSD_RATE_PER_MINUTE. */
export async function withinRate({ db, clock, config }: UssdDeps, phone: string): Promise<boolean> {
  const now = clock.now();
  const r = await one<{ hits: number }>(
    db,
    sql`INSERT INTO ussd_rate (phone, window_start, hits) VALUES (${phone}, ${now}, 1)
        ON CONFLICT (phone) DO UPDATE SET
          hits = CASE WHEN ussd_rate.window_start <= ${new Date(now.getTime() - MINUTE)} THEN 1 ELSE ussd_rate.hits + 1 END,
          window_start = CASE WHEN ussd_rate.window_start <= ${new Date(now.getTime() - MINUTE)} THEN ${now} ELSE ussd_rate.window_start END
        RETURNING hits`,
  );
  return (r?.hits ?? 0) <= config.ussd.ratePerMinute;
}

/** The session's row, or undefined when it has none yet. */
export const loadSession = ({ db }: UssdDeps, sessionId: string) =>
  one<SessionRow>(db, sql`SELECT phone, user_id::text AS user_id, step, state, screen FROM ussd_sessions WHERE session_id = ${sessionId}`);

/** A new session for the caller: its first screen, in their language. Null when another request made it first. */
export async function openSession(
  { db, clock, settings }: UssdDeps,
  req: UssdRequest,
  phone: string,
  owner: PhoneOwner,
): Promise<SessionRow | null> {
  const prefs = await settings.getPreferences(owner.id);
  const first = startState(ussdLanguage(prefs.preferences.language));
  const now = clock.now();
  const made = await one(
    db,
    sql`INSERT INTO ussd_sessions (session_id, phone, user_id, step, state, screen, created_at, updated_at)
        VALUES (${req.sessionId}, ${phone}, ${owner.id}, 0, ${JSON.stringify(first.state)}::jsonb, ${wire(first.screen)}, ${now}, ${now})
        ON CONFLICT (session_id) DO NOTHING RETURNING 1`,
  );
  return made ? { phone, user_id: owner.id, step: 0, state: first.state, screen: wire(first.screen) } : null;
}

/** Sessions older than a day go (a gateway session lasts minutes). */
export async function forgetOldSessions({ db, clock }: UssdDeps): Promise<void> {
  await db.execute(sql`DELETE FROM ussd_sessions WHERE updated_at < ${new Date(clock.now().getTime() - SESSION_KEEP_MS)}`);
}
