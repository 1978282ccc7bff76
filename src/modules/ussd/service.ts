import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { DAY, MINUTE } from '../../kernel/clock.js';
import { normalizePhone } from '../../kernel/phone.js';
import type { Services } from '../../platform/services.js';
import { channelOpen } from '../console/api.js';
import { ownerOfVerifiedPhone, type PhoneOwner } from '../identity/api.js';
import { readsFor } from './context.js';
import { answer, startState, type MenuContext, type Moved, type UssdState } from './menu.js';
import { createUssdPurchases } from './purchase.js';
import { end, wire, type Screen } from './screens.js';
import { textsOf, ussdLanguage, type UssdLanguage } from './texts.js';

/**
 * The USSD channel (issue 46; docs/decisions.md, "USSD"): Africa's Talking's callback, one request per answer, the
 * answers so far `*`-joined in `text`. The caller is the account whose verified phone is the calling number. A
 * session row keeps where the menu is and how many answers it has taken: an answer is taken once (a conditional
 * UPDATE claims its step), and a retry of a step already taken gets the stored screen again. The PIN is never stored.
 */
export type UssdDeps = Pick<
  Services,
  'db' | 'clock' | 'log' | 'config' | 'jobs' | 'work' | 'vtu' | 'pins' | 'wallet' | 'beneficiaries' | 'settings' | 'customers' | 'outbox'
>;

export interface UssdRequest {
  sessionId: string;
  serviceCode: string;
  phoneNumber: string;
  text: string;
}

/** A number verified this recently may be a recycled one: balance and history ask the PIN first. */
export const RECENT_VERIFICATION_MS = 30 * DAY;
const SESSION_KEEP_MS = DAY;

const SIGN_UP = 'This number has no account. Sign up in the app and verify this phone number, then dial again.';
const TOO_MANY = 'Too many requests from this number. Try again in a minute.';

interface SessionRow {
  phone: string;
  user_id: string;
  step: number;
  state: UssdState;
  screen: string | null;
}

export function createUssdService(deps: UssdDeps) {
  const { db, clock, config } = deps;
  const purchases = createUssdPurchases(deps);

  /** Counts the request against the number's minute; false past USSD_RATE_PER_MINUTE. */
  async function withinRate(phone: string): Promise<boolean> {
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

  const loadSession = (sessionId: string) =>
    one<SessionRow>(
      db,
      sql`SELECT phone, user_id::text AS user_id, step, state, screen FROM ussd_sessions WHERE session_id = ${sessionId}`,
    );

  /** A new session for the caller: its first screen, in their language. Null when another request made it first. */
  async function openSession(req: UssdRequest, phone: string, owner: PhoneOwner): Promise<SessionRow | null> {
    const prefs = await deps.settings.getPreferences(owner.id);
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

  function menuContext(s: SessionRow, owner: PhoneOwner, sessionId: string, step: number): MenuContext {
    const recent = clock.now().getTime() - owner.phoneVerifiedAt.getTime() < RECENT_VERIFICATION_MS;
    return {
      ...readsFor(deps, { userId: owner.id, ownPhone: s.phone, recent }),
      buy: (order, summary, state) =>
        purchases.buy(sessionId, step, { userId: owner.id, kycTier: owner.kycTier, phone: s.phone }, order, summary, state.lang),
      setLanguage: async (lang: UssdLanguage) => {
        await deps.settings.updatePreferences(owner.id, { language: lang });
      },
    };
  }

  /** Takes the answers after the session's step, once: the claim, each answer in turn, the stored screen. */
  async function takeAnswers(sessionId: string, s: SessionRow, owner: PhoneOwner, answers: string[]): Promise<Screen> {
    const claimed = await one(
      db,
      sql`UPDATE ussd_sessions SET step = ${answers.length}, screen = NULL, updated_at = ${clock.now()}
          WHERE session_id = ${sessionId} AND step = ${s.step} RETURNING 1`,
    );
    // Another request took this step at the same moment (a retry racing the first): it answers the caller.
    if (!claimed) return end(textsOf(s.state.lang).busy);
    let moved: Moved = { state: s.state, screen: end('') };
    for (let step = s.step + 1; step <= answers.length; step++) {
      moved = await answer(moved.state, answers[step - 1]!.trim(), menuContext(s, owner, sessionId, step));
      if (moved.screen.end) break;
    }
    const stored = wire(moved.screen);
    await db.execute(sql`UPDATE ussd_sessions SET state = ${JSON.stringify(moved.state)}::jsonb, screen = ${stored}, updated_at = ${clock.now()}
                         WHERE session_id = ${sessionId}`);
    return moved.screen;
  }

  /** One callback: the screen to answer with. */
  async function handle(req: UssdRequest): Promise<Screen> {
    // An admin turned the channel off (adminSetChannels): every screen, a session's next answer too, ends here.
    if (!(await channelOpen(db, 'ussd'))) return end(`${config.totpIssuer} by USSD is not available now`);
    const phone = normalizePhone(req.phoneNumber);
    if (!phone) return end(SIGN_UP);
    if (!(await withinRate(phone))) return end(TOO_MANY);
    const owner = await ownerOfVerifiedPhone(db, phone);
    if (!owner || owner.status !== 'active') return end(SIGN_UP);
    const answers = req.text === '' ? [] : req.text.split('*');
    let s = await loadSession(req.sessionId);
    if (!s) s = (await openSession(req, phone, owner)) ?? (await loadSession(req.sessionId));
    // A session id is one caller's; the number's owner may have changed since it began.
    if (!s || s.phone !== phone || s.user_id !== owner.id) return end(SIGN_UP);
    if (answers.length > s.step) return takeAnswers(req.sessionId, s, owner, answers);
    // A retry of a step already taken: the same screen again (null: still being answered).
    if (s.screen) return { end: s.screen.startsWith('END '), text: s.screen.slice(4) };
    return end(textsOf(s.state.lang).busy);
  }

  return {
    handle,
    lookAgain: purchases.lookAgain,
    /** Sessions older than a day go (a gateway session lasts minutes). */
    async forgetOldSessions(): Promise<void> {
      await db.execute(sql`DELETE FROM ussd_sessions WHERE updated_at < ${new Date(clock.now().getTime() - SESSION_KEEP_MS)}`);
    },
  };
}

export type UssdService = ReturnType<typeof createUssdService>;
