import { MINUTE } from '../../kernel/clock.js';
import type { Services } from '../../platform/services.js';
import type { WhatsappMessage, WhatsappSender } from '../../providers/whatsapp.js';
import type { Order, UssdLanguage } from '../ussd/api.js';

/**
 * The WhatsApp assistant (issue 46; docs/decisions.md, "WhatsApp"): the Cloud API's webhook in, its messages out.
 * A number is linked to an account by a one-time code made in the app; each inbound message id is taken once; the
 * conversation's place is a row per number; a purchase (or, on a recently verified number, the balance and the
 * history) is confirmed by the PIN on a one-time page, never in the chat.
 */
export type WhatsappDeps = Pick<
  Services,
  'db' | 'clock' | 'log' | 'config' | 'jobs' | 'work' | 'vtu' | 'pins' | 'wallet' | 'beneficiaries' | 'settings' | 'customers' | 'upstream'
> & { sender: WhatsappSender };

/** A link code and a PIN link live 10 minutes; a conversation left alone 30 minutes starts again at the menu. */
export const CODE_TTL_MS = 10 * MINUTE;
export const PIN_LINK_TTL_MS = 10 * MINUTE;
export const CONVERSATION_IDLE_MS = 30 * MINUTE;
/** Rows a list message may hold (the Cloud API's limit is 10): 8 items, More and Back. */
export const LIST_ITEMS = 8;

export type Place =
  | { at: 'main' }
  | { at: 'who'; order: Order }
  | { at: 'number'; order: Order }
  | { at: 'amount'; order: Order }
  | { at: 'network' }
  | { at: 'plans'; order: Order; page: number }
  | { at: 'bills'; page: number }
  | { at: 'confirm'; order: Order }
  | { at: 'language' };

export interface Conversation {
  lang: UssdLanguage;
  place: Place;
}

/** What a PIN link confirms: a purchase, or showing the balance or the history on a recently verified number. */
export type PinAction = { kind: 'purchase'; order: Order } | { kind: 'reveal'; then: 'balance' | 'history' };

/** One inbound message as the webhook gives it: a typed text or the id of a tapped list row or button. */
export interface Inbound {
  id: string;
  from: string;
  text?: string;
  reply?: string;
}

/** The caller once linked: the account, its tier, and whether the number was verified or linked in the last 30 days. */
export interface Caller {
  phone: string;
  waId: string;
  userId: string;
  kycTier: number;
  recent: boolean;
}

export type Out = WhatsappMessage;
