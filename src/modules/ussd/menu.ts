import { networkOf, normalizePhone, NETWORKS, type Network } from '../../kernel/phone.js';
import { AIRTIME_RANGE, ELECTRICITY_RANGE, orderSummary, type Order } from './order.js';
import { BACK, con, end, listPage, MORE, numbered, pageCount, pickOnPage, type Screen } from './screens.js';
import { LANGUAGE_NAMES, nairaText, textsOf, USSD_LANGUAGES, type UssdLanguage, type UssdTexts } from './texts.js';

/**
 * The USSD menu as a state machine (docs/decisions.md, "USSD"): a session's state is where the caller is and what
 * they have chosen so far; each answer moves it and gives the next screen. At most four answers deep before the
 * PIN: main menu, then what, for whom, how much. Reads, the PIN check and the purchase are the MenuContext's.
 */
export type Place =
  | { at: 'main' }
  | { at: 'gate'; then: 'balance' | 'history' }
  | { at: 'who'; order: Order }
  | { at: 'number'; order: Order }
  | { at: 'amount'; order: Order }
  | { at: 'network' }
  | { at: 'plans'; order: Order; page: number }
  | { at: 'bills'; page: number }
  | { at: 'pay'; order: Order }
  | { at: 'language' };

export interface UssdState {
  lang: UssdLanguage;
  place: Place;
  /** The PIN was given in this session (balance and history on a recently verified number ask it once). */
  pinOk: boolean;
}

export interface Plan {
  id: string;
  name: string;
  price: number;
}

export interface Saved {
  kind: 'meter' | 'smartcard';
  label: string;
  recipient: string;
  provider: string;
  meterType: 'prepaid' | 'postpaid' | null;
}

export type PinAnswer =
  { ok: true } | { ok: false; triesLeft: number } | { ok: false; lockedMinutes: number } | { ok: false; notSet: true };

/** What the menu asks of the service for one caller. */
export interface MenuContext {
  ownPhone: string;
  /** The number was verified in the last 30 days (it may be recycled): balance and history ask the PIN first. */
  recent: boolean;
  balance(): Promise<number>;
  history(): Promise<string[]>;
  dataPlans(network: Network): Promise<Plan[]>;
  cablePlans(identifier: string): Promise<Plan[]>;
  saved(): Promise<Saved[]>;
  /** What the wallet pays for the order (amount plus any fee). */
  total(order: Order): Promise<number>;
  checkPin(pin: string): Promise<PinAnswer>;
  /** Buys the order (the screen that ends the session). */
  buy(order: Order, summary: string, state: UssdState): Promise<Screen>;
  setLanguage(lang: UssdLanguage): Promise<void>;
}

export interface Moved {
  state: UssdState;
  screen: Screen;
}

export const mainMenu = (t: UssdTexts, first?: string): Screen => con(first ?? '', ...numbered(t.menu));

const at = (state: UssdState, place: Place, screen: Screen): Moved => ({ state: { ...state, place }, screen });
const stay = (state: UssdState, screen: Screen): Moved => ({ state, screen });

/** The first screen of a session. */
export function startState(lang: UssdLanguage): Moved {
  return { state: { lang, place: { at: 'main' }, pinOk: false }, screen: mainMenu(textsOf(lang)) };
}

/** One answer: the next state and screen. */
export async function answer(state: UssdState, input: string, ctx: MenuContext): Promise<Moved> {
  const t = textsOf(state.lang);
  const p = state.place;
  switch (p.at) {
    case 'main':
      return fromMain(state, input, ctx, t);
    case 'gate':
      return afterGate(state, p.then, input, ctx, t);
    case 'who':
      if (input === '1') return afterNumber(state, { ...p.order, phone: ctx.ownPhone }, ctx, t);
      if (input === '2') return at(state, { at: 'number', order: p.order }, con(t.enterNumber));
      return stay(state, con(t.invalid, ...numbered(t.forWhom)));
    case 'number':
      return enterNumber(state, p.order, input, ctx, t);
    case 'amount':
      return enterAmount(state, p.order, input, ctx, t);
    case 'network': {
      const network = NETWORKS[Number(input) - 1];
      if (!/^[1-4]$/.test(input) || !network) return stay(state, networkMenu(t, t.invalid));
      return showPlans(state, { kind: 'data', network }, 0, ctx, t);
    }
    case 'plans':
      return pickPlan(state, p.order, p.page, input, ctx, t);
    case 'bills':
      return pickBill(state, p.page, input, ctx, t);
    case 'pay':
      return pay(state, p.order, input, ctx, t);
    case 'language': {
      const lang = USSD_LANGUAGES[Number(input) - 1];
      if (!/^[1-4]$/.test(input) || !lang) return stay(state, languageMenu(t, t.invalid));
      await ctx.setLanguage(lang);
      return { state: { ...state, lang, place: { at: 'main' } }, screen: mainMenu(textsOf(lang)) };
    }
  }
}

const networkMenu = (t: UssdTexts, first = '') => con(first, t.chooseNetwork, ...numbered(NETWORKS.map((n) => n.toUpperCase())));
const languageMenu = (t: UssdTexts, first = '') => con(first, t.chooseLanguage, ...numbered(USSD_LANGUAGES.map((l) => LANGUAGE_NAMES[l])));

async function fromMain(state: UssdState, input: string, ctx: MenuContext, t: UssdTexts): Promise<Moved> {
  switch (input) {
    case '1':
    case '5': {
      const then = input === '1' ? 'balance' : 'history';
      if (ctx.recent && !state.pinOk) return at(state, { at: 'gate', then }, con(t.pinFirst));
      return stay(state, await shown(then, ctx, t));
    }
    case '2':
      return at(state, { at: 'who', order: { kind: 'airtime' } }, con(t.menu[1]!, ...numbered(t.forWhom)));
    case '3':
      return at(state, { at: 'network' }, networkMenu(t));
    case '4': {
      const saved = await ctx.saved();
      if (!saved.length) return stay(state, end(t.noSaved));
      return at(state, { at: 'bills', page: 0 }, listPage(t.chooseSaved, saved.map(savedLine), 0, t));
    }
    case '6':
      return at(state, { at: 'language' }, languageMenu(t));
    default:
      return stay(state, mainMenu(t, t.invalid));
  }
}

async function shown(what: 'balance' | 'history', ctx: MenuContext, t: UssdTexts): Promise<Screen> {
  if (what === 'balance') return end(t.balance(nairaText(await ctx.balance())));
  const lines = await ctx.history();
  return end(t.history, ...(lines.length ? lines : [t.noHistory]));
}

/** A PIN answer that is not a yes: the screen saying why, or null to carry on. */
function pinRefusal(r: PinAnswer, t: UssdTexts): Screen | null {
  if (r.ok) return null;
  if ('triesLeft' in r) return con(t.wrongPin(r.triesLeft));
  if ('lockedMinutes' in r) return end(t.pinLocked(r.lockedMinutes));
  return end(t.pinNotSet);
}

async function afterGate(state: UssdState, then: 'balance' | 'history', input: string, ctx: MenuContext, t: UssdTexts): Promise<Moved> {
  const refused = pinRefusal(await ctx.checkPin(input), t);
  if (refused) return stay(state, refused);
  return { state: { ...state, pinOk: true, place: { at: 'main' } }, screen: await shown(then, ctx, t) };
}

async function enterNumber(state: UssdState, order: Order, input: string, ctx: MenuContext, t: UssdTexts): Promise<Moved> {
  const phone = normalizePhone(input);
  const network = phone ? networkOf(phone) : null;
  // A data plan is for one network: a number of another network is refused here, before the PIN.
  if (!phone || !network || (order.kind === 'data' && order.network !== network)) return stay(state, con(t.badNumber));
  return afterNumber(state, { ...order, phone }, ctx, t);
}

async function afterNumber(state: UssdState, order: Order, ctx: MenuContext, t: UssdTexts): Promise<Moved> {
  if (order.kind === 'data') return toPay(state, order, ctx, t);
  const network = networkOf(order.phone!);
  if (!network) return stay(state, con(t.badNumber));
  return at(state, { at: 'amount', order: { ...order, network } }, con(t.enterAmount(...AIRTIME_RANGE)));
}

async function enterAmount(state: UssdState, order: Order, input: string, ctx: MenuContext, t: UssdTexts): Promise<Moved> {
  const [min, max] = order.kind === 'electricity' ? ELECTRICITY_RANGE : AIRTIME_RANGE;
  const amount = /^\d{1,7}$/.test(input) ? Number(input) : NaN;
  if (!(amount >= min && amount <= max)) return stay(state, con(t.badAmount, t.enterAmount(min, max)));
  return toPay(state, { ...order, amount }, ctx, t);
}

async function plansOf(order: Order, ctx: MenuContext): Promise<Plan[]> {
  return order.kind === 'data' ? ctx.dataPlans(order.network as Network) : ctx.cablePlans(order.identifier!);
}

const planLine = (p: Plan) => `${p.name} ${nairaText(p.price)}`;

async function showPlans(state: UssdState, order: Order, page: number, ctx: MenuContext, t: UssdTexts): Promise<Moved> {
  const plans = await plansOf(order, ctx);
  if (!plans.length) return stay(state, end(t.noPlans));
  return at(state, { at: 'plans', order, page }, listPage(t.choosePlan, plans.map(planLine), page, t));
}

async function pickPlan(state: UssdState, order: Order, page: number, input: string, ctx: MenuContext, t: UssdTexts): Promise<Moved> {
  const plans = await plansOf(order, ctx);
  const lines = plans.map(planLine);
  if (input === MORE && page + 1 < pageCount(t.choosePlan, lines, t)) return showPlans(state, order, page + 1, ctx, t);
  if (input === BACK) return page > 0 ? showPlans(state, order, page - 1, ctx, t) : at(state, { at: 'main' }, mainMenu(t));
  const i = pickOnPage(t.choosePlan, lines, page, input, t);
  if (i === null) return stay(state, listPage(t.choosePlan, lines, page, t));
  const plan = plans[i]!;
  const chosen: Order = { ...order, planId: plan.id, planName: plan.name, amount: plan.price };
  if (order.kind === 'data') return at(state, { at: 'who', order: chosen }, con(plan.name, ...numbered(t.forWhom)));
  return toPay(state, chosen, ctx, t);
}

const savedLine = (s: Saved) => `${s.label} ${s.provider} ${s.recipient.slice(-4)}`;

async function pickBill(state: UssdState, page: number, input: string, ctx: MenuContext, t: UssdTexts): Promise<Moved> {
  const saved = await ctx.saved();
  const lines = saved.map(savedLine);
  if (input === MORE && page + 1 < pageCount(t.chooseSaved, lines, t))
    return at(state, { at: 'bills', page: page + 1 }, listPage(t.chooseSaved, lines, page + 1, t));
  if (input === BACK) return at(state, { at: 'main' }, mainMenu(t));
  const i = pickOnPage(t.chooseSaved, lines, page, input, t);
  if (i === null) return stay(state, listPage(t.chooseSaved, lines, page, t));
  const s = saved[i]!;
  if (s.kind === 'smartcard') return showPlans(state, { kind: 'cable', identifier: s.provider, iuc: s.recipient }, 0, ctx, t);
  const order: Order = { kind: 'electricity', disco: s.provider, meter: s.recipient, meterType: s.meterType ?? 'prepaid' };
  return at(state, { at: 'amount', order }, con(savedLine(s), t.enterAmount(...ELECTRICITY_RANGE)));
}

/** The confirmation: what is bought and the total the wallet pays, then the PIN. */
async function toPay(state: UssdState, order: Order, ctx: MenuContext, t: UssdTexts): Promise<Moved> {
  let total: number;
  try {
    total = await ctx.total(order);
  } catch {
    return stay(state, end(t.unavailable));
  }
  const priced = { ...order, total };
  return at(state, { at: 'pay', order: priced }, confirmScreen(priced, t));
}

const confirmScreen = (order: Order, t: UssdTexts) =>
  con(t.confirm(`${orderSummary(order, t)}\n${t.total} ${nairaText(order.total ?? order.amount ?? 0)}`));

async function pay(state: UssdState, order: Order, input: string, ctx: MenuContext, t: UssdTexts): Promise<Moved> {
  if (input === BACK) return stay(state, end(t.cancelled));
  if (!/^\d{4}$/.test(input)) return stay(state, confirmScreen(order, t));
  const refused = pinRefusal(await ctx.checkPin(input), t);
  if (refused) return stay(state, refused);
  return stay(state, await ctx.buy(order, orderSummary(order, t), state));
}
