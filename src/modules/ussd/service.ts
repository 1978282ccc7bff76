import { normalizePhone } from '../../kernel/phone.js';
import { channelOpen } from '../console/api.js';
import { ownerOfVerifiedPhone } from '../identity/api.js';
import { takeAnswers, type AnswerDeps } from './answers.js';
import type { UssdDeps, UssdRequest } from './deps.js';
import { createUssdPurchases } from './purchase.js';
import { end, type Screen } from './screens.js';
import { forgetOldSessions, loadSession, openSession, withinRate } from './sessions.js';
import { textsOf } from './texts.js';

export { RECENT_VERIFICATION_MS, type UssdDeps, type UssdRequest } from './deps.js';

const SIGN_UP = 'This number has no account. Sign up in the app and verify this phone number, then dial again.';
const TOO_MANY = 'Too many requests from this number. Try again in a minute.';

/** One callback: the screen to answer with. */
async function handle(deps: AnswerDeps, req: UssdRequest): Promise<Screen> {
  const { db, config } = deps;
  // An admin turned the channel off (adminSetChannels): every screen, a session's next answer too, ends here.
  if (!(await channelOpen(db, 'ussd'))) return end(`${config.totpIssuer} by USSD is not available now`);
  const phone = normalizePhone(req.phoneNumber);
  if (!phone) return end(SIGN_UP);
  if (!(await withinRate(deps, phone))) return end(TOO_MANY);
  const owner = await ownerOfVerifiedPhone(db, phone);
  if (!owner || owner.status !== 'active') return end(SIGN_UP);
  const answers = req.text === '' ? [] : req.text.split('*');
  let s = await loadSession(deps, req.sessionId);
  if (!s) s = (await openSession(deps, req, phone, owner)) ?? (await loadSession(deps, req.sessionId));
  // A session id is one caller's; the number's owner may have changed since it began.
  if (!s || s.phone !== phone || s.user_id !== owner.id) return end(SIGN_UP);
  if (answers.length > s.step) return takeAnswers(deps, req.sessionId, s, owner, answers);
  // A retry of a step already taken: the same screen again (null: still being answered).
  if (s.screen) return { end: s.screen.startsWith('END '), text: s.screen.slice(4) };
  return end(textsOf(s.state.lang).busy);
}

/** The USSD channel (deps.ts): the gateway's callback, the purchases' result job and the old sessions' clean-up. */
export function createUssdService(deps: UssdDeps) {
  const purchases = createUssdPurchases(deps);
  const answering: AnswerDeps = { ...deps, purchases };
  return {
    handle: (req: UssdRequest) => handle(answering, req),
    lookAgain: purchases.lookAgain,
    /** Sessions older than a day go (a gateway session lasts minutes). */
    forgetOldSessions: () => forgetOldSessions(deps),
  };
}

export type UssdService = ReturnType<typeof createUssdService>;
