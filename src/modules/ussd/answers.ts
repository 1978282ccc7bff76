import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import type { PhoneOwner } from '../identity/api.js';
import { readsFor } from './context.js';
import { RECENT_VERIFICATION_MS, type SessionRow, type UssdDeps } from './deps.js';
import { answer, type MenuContext, type Moved } from './menu.js';
import type { createUssdPurchases } from './purchase.js';
import { end, wire, type Screen } from './screens.js';
import { textsOf, type UssdLanguage } from './texts.js';

/** What taking answers uses: the module's dependencies and the USSD purchases (purchase.ts). */
export interface AnswerDeps extends UssdDeps {
  purchases: ReturnType<typeof createUssdPurchases>;
}

function menuContext(deps: AnswerDeps, s: SessionRow, owner: PhoneOwner, sessionId: string, step: number): MenuContext {
  const recent = deps.clock.now().getTime() - owner.phoneVerifiedAt.getTime() < RECENT_VERIFICATION_MS;
  return {
    ...readsFor(deps, { userId: owner.id, ownPhone: s.phone, recent }),
    buy: (order, summary, state) =>
      deps.purchases.buy(sessionId, step, { userId: owner.id, kycTier: owner.kycTier, phone: s.phone }, order, summary, state.lang),
    setLanguage: async (lang: UssdLanguage) => {
      await deps.settings.updatePreferences(owner.id, { language: lang });
    },
  };
}

/** Takes the answers after the session's step, once: the claim, each answer in turn, the stored screen. */
export async function takeAnswers(
  deps: AnswerDeps,
  sessionId: string,
  s: SessionRow,
  owner: PhoneOwner,
  answers: string[],
): Promise<Screen> {
  const { db, clock } = deps;
  const claimed = await one(
    db,
    sql`UPDATE ussd_sessions SET step = ${answers.length}, screen = NULL, updated_at = ${clock.now()}
        WHERE session_id = ${sessionId} AND step = ${s.step} RETURNING 1`,
  );
  // Another request took this step at the same moment (a retry racing the first): it answers the caller.
  if (!claimed) return end(textsOf(s.state.lang).busy);
  let moved: Moved = { state: s.state, screen: end('') };
  for (let step = s.step + 1; step <= answers.length; step++) {
    moved = await answer(moved.state, answers[step - 1]!.trim(), menuContext(deps, s, owner, sessionId, step));
    if (moved.screen.end) break;
  }
  const stored = wire(moved.screen);
  await db.execute(sql`UPDATE ussd_sessions SET state = ${JSON.stringify(moved.state)}::jsonb, screen = ${stored}, updated_at = ${clock.now()}
                       WHERE session_id = ${sessionId}`);
  return moved.screen;
}
