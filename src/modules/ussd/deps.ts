import { DAY } from '../../kernel/clock.js';
import type { Services } from '../../platform/services.js';
import type { UssdState } from './menu.js';

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

/** A session as its row keeps it: the caller, the answers taken (step), the menu's state and the stored screen. */
export interface SessionRow {
  phone: string;
  user_id: string;
  step: number;
  state: UssdState;
  screen: string | null;
}
