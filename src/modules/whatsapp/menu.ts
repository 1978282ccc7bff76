import { networkOf, normalizePhone, NETWORKS, type Network } from '../../kernel/phone.js';
import {
  AIRTIME_RANGE,
  ELECTRICITY_RANGE,
  LANGUAGE_NAMES,
  nairaText,
  orderSummary,
  USSD_LANGUAGES,
  type Order,
  type Plan,
  type Saved,
  type UssdLanguage,
} from '../ussd/api.js';
import { LIST_ITEMS, type Conversation, type Out, type PinAction, type Place } from './deps.js';
import { buttons, list, text, type Row } from './messages.js';
import { chatTexts, type ChatTexts } from './texts.js';

/**
 * The chat's menu as a state machine (docs/decisions.md, "WhatsApp"): the same actions as the USSD menu, each step
 * an interactive list or buttons the customer taps (a number or an amount is typed). At most four taps before the
 * PIN link: menu, what, for whom or which plan, pay. Reads and the PIN link are the context's.
 */
export interface ChatContext {
  ownPhone: string;
  recent: boolean;
  balance(): Promise<number>;
  history(): Promise<string[]>;
  dataPlans(network: Network): Promise<Plan[]>;
  saved(): Promise<Saved[]>;
  total(order: Order): Promise<number>;
  /** Makes a one-time PIN link for the action: its URL. */
  pinLink(action: PinAction, summary: string, totalNaira: number): Promise<string>;
  setLanguage(lang: UssdLanguage): Promise<void>;
}

export interface Said {
  text?: string;
  reply?: string;
}

export interface Moved {
  conv: Conversation;
  out: Out[];
}

const MAIN_IDS = ['m:balance', 'm:airtime', 'm:data', 'm:bill', 'm:history', 'm:language'] as const;

export function mainMenu(t: ChatTexts, first?: string): Out {
  const rows = MAIN_IDS.map((id, i) => ({ id, title: t.menu.menu[i]! }));
  return list([first, t.choose].filter(Boolean).join('\n'), t.open, rows);
}

const to = (conv: Conversation, place: Place, ...out: Out[]): Moved => ({ conv: { ...conv, place }, out });
const home = (conv: Conversation, ...out: Out[]): Moved => to(conv, { at: 'main' }, ...out);

/** One message from the customer: the next place and the messages to send. */
export async function answer(conv: Conversation, said: Said, ctx: ChatContext): Promise<Moved> {
  const t = chatTexts(conv.lang);
  const input = (said.reply ?? said.text ?? '').trim();
  if (said.reply?.startsWith('m:')) return fromMain(conv, said.reply, ctx, t);
  if (!said.reply && /^(menu|hi|hello|start|0)$/i.test(input)) return home(conv, mainMenu(t));
  const p = conv.place;
  switch (p.at) {
    case 'main':
      return home(conv, mainMenu(t));
    case 'who':
      if (input === 'w:self') return afterNumber(conv, { ...p.order, phone: ctx.ownPhone }, ctx, t);
      if (input === 'w:other') return to(conv, { at: 'number', order: p.order }, text(t.menu.enterNumber));
      return to(conv, p, whoButtons(t, t.menu.invalid));
    case 'number':
      return enterNumber(conv, p.order, input, ctx, t);
    case 'amount':
      return enterAmount(conv, p.order, input, ctx, t);
    case 'network': {
      const network = NETWORKS.find((n) => `n:${n}` === input);
      return network ? showPlans(conv, { kind: 'data', network }, 0, ctx, t) : to(conv, p, networkList(t));
    }
    case 'plans':
      return pickPlan(conv, p.order, p.page, input, ctx, t);
    case 'bills':
      return pickBill(conv, p.page, input, ctx, t);
    case 'confirm':
      return confirm(conv, p.order, input, ctx, t);
    case 'language': {
      const lang = USSD_LANGUAGES.find((l) => `l:${l}` === input);
      if (!lang) return to(conv, p, languageList(t));
      await ctx.setLanguage(lang);
      return to({ ...conv, lang }, { at: 'main' }, mainMenu(chatTexts(lang)));
    }
  }
}

const whoButtons = (t: ChatTexts, first = '') =>
  buttons([first, t.menu.menu[1]].filter(Boolean).join('\n'), [
    { id: 'w:self', title: t.menu.forWhom[0] },
    { id: 'w:other', title: t.menu.forWhom[1] },
  ]);
const networkList = (t: ChatTexts) =>
  list(
    t.menu.chooseNetwork,
    t.open,
    NETWORKS.map((n) => ({ id: `n:${n}`, title: n.toUpperCase() })),
  );
const languageList = (t: ChatTexts) =>
  list(
    t.menu.chooseLanguage,
    t.open,
    USSD_LANGUAGES.map((l) => ({ id: `l:${l}`, title: LANGUAGE_NAMES[l] })),
  );

async function fromMain(conv: Conversation, id: string, ctx: ChatContext, t: ChatTexts): Promise<Moved> {
  switch (id) {
    case 'm:balance':
    case 'm:history': {
      const then = id === 'm:balance' ? 'balance' : 'history';
      // A number verified or linked in the last 30 days may be a recycled one: the PIN first, on its page.
      if (ctx.recent)
        return home(conv, text(t.revealLink(await ctx.pinLink({ kind: 'reveal', then }, t.menu.menu[then === 'balance' ? 0 : 4]!, 0))));
      return home(conv, text(await revealed(then, ctx, t)));
    }
    case 'm:airtime':
      return to(conv, { at: 'who', order: { kind: 'airtime' } }, whoButtons(t));
    case 'm:data':
      return to(conv, { at: 'network' }, networkList(t));
    case 'm:bill': {
      const meters = await metersOf(ctx);
      if (!meters.length) return home(conv, text(t.menu.noSaved));
      return to(conv, { at: 'bills', page: 0 }, pageList(t, t.menu.chooseSaved, meters.map(meterRow), 0, 'b'));
    }
    case 'm:language':
      return to(conv, { at: 'language' }, languageList(t));
    default:
      return home(conv, mainMenu(t, t.menu.invalid));
  }
}

/** The balance or the last five, as the chat shows them. */
export async function revealed(then: 'balance' | 'history', ctx: Pick<ChatContext, 'balance' | 'history'>, t: ChatTexts): Promise<string> {
  if (then === 'balance') return t.menu.balance(nairaText(await ctx.balance()));
  const lines = await ctx.history();
  return [t.menu.history, ...(lines.length ? lines : [t.menu.noHistory])].join('\n');
}

async function enterNumber(conv: Conversation, order: Order, input: string, ctx: ChatContext, t: ChatTexts): Promise<Moved> {
  const phone = normalizePhone(input);
  const network = phone ? networkOf(phone) : null;
  // A data plan is for one network: a number of another network is refused here, before the PIN.
  if (!phone || !network || (order.kind === 'data' && order.network !== network)) return to(conv, conv.place, text(t.menu.badNumber));
  return afterNumber(conv, { ...order, phone }, ctx, t);
}

async function afterNumber(conv: Conversation, order: Order, ctx: ChatContext, t: ChatTexts): Promise<Moved> {
  if (order.kind === 'data') return toConfirm(conv, order, ctx, t);
  const network = networkOf(order.phone!);
  if (!network) return to(conv, conv.place, text(t.menu.badNumber));
  return to(conv, { at: 'amount', order: { ...order, network } }, text(t.menu.enterAmount(...AIRTIME_RANGE)));
}

async function enterAmount(conv: Conversation, order: Order, input: string, ctx: ChatContext, t: ChatTexts): Promise<Moved> {
  const [min, max] = order.kind === 'electricity' ? ELECTRICITY_RANGE : AIRTIME_RANGE;
  const amount = /^\d{1,7}$/.test(input.replace(/,/g, '')) ? Number(input.replace(/,/g, '')) : NaN;
  if (!(amount >= min && amount <= max)) return to(conv, conv.place, text(`${t.menu.badAmount} (N${min}-N${max})`));
  return toConfirm(conv, { ...order, amount }, ctx, t);
}

/** A page of a list message: up to LIST_ITEMS rows, then More when another page follows, and Back. */
function pageList(t: ChatTexts, header: string, rows: Row[], page: number, prefix: string): Out {
  const shown = rows.slice(page * LIST_ITEMS, (page + 1) * LIST_ITEMS);
  const more = (page + 1) * LIST_ITEMS < rows.length ? [{ id: `${prefix}:more`, title: t.menu.more }] : [];
  return list(header, t.open, [...shown, ...more, { id: `${prefix}:back`, title: t.menu.back }]);
}

const planRow = (p: Plan, i: number): Row => ({ id: `p:${i}`, title: p.name, description: `${nairaText(p.price)} · ${p.name}` });

async function showPlans(conv: Conversation, order: Order, page: number, ctx: ChatContext, t: ChatTexts): Promise<Moved> {
  const plans = await ctx.dataPlans(order.network as Network);
  if (!plans.length) return home(conv, text(t.menu.noPlans));
  return to(conv, { at: 'plans', order, page }, pageList(t, t.menu.choosePlan, plans.map(planRow), page, 'p'));
}

async function pickPlan(conv: Conversation, order: Order, page: number, input: string, ctx: ChatContext, t: ChatTexts): Promise<Moved> {
  if (input === 'p:more') return showPlans(conv, order, page + 1, ctx, t);
  if (input === 'p:back') return page > 0 ? showPlans(conv, order, page - 1, ctx, t) : home(conv, mainMenu(t));
  const plans = await ctx.dataPlans(order.network as Network);
  const plan = /^p:\d+$/.test(input) ? plans[Number(input.slice(2))] : undefined;
  if (!plan) return showPlans(conv, order, page, ctx, t);
  const chosen: Order = { ...order, planId: plan.id, planName: plan.name, amount: plan.price };
  return to(conv, { at: 'who', order: chosen }, whoButtons(t, plan.name));
}

const metersOf = async (ctx: ChatContext) => (await ctx.saved()).filter((s) => s.kind === 'meter');
const meterRow = (s: Saved, i: number): Row => ({
  id: `b:${i}`,
  title: s.label,
  description: `${s.provider} ${s.meterType ?? ''} ${s.recipient}`,
});

async function pickBill(conv: Conversation, page: number, input: string, ctx: ChatContext, t: ChatTexts): Promise<Moved> {
  const meters = await metersOf(ctx);
  if (input === 'b:back') return home(conv, mainMenu(t));
  const nextPage = input === 'b:more' ? page + 1 : page;
  const s = /^b:\d+$/.test(input) ? meters[Number(input.slice(2))] : undefined;
  if (!s) return to(conv, { at: 'bills', page: nextPage }, pageList(t, t.menu.chooseSaved, meters.map(meterRow), nextPage, 'b'));
  const order: Order = { kind: 'electricity', disco: s.provider, meter: s.recipient, meterType: s.meterType ?? 'prepaid' };
  return to(conv, { at: 'amount', order }, text(`${s.label} ${s.provider} ${s.recipient}\n${t.menu.enterAmount(...ELECTRICITY_RANGE)}`));
}

const confirmButtons = (order: Order, t: ChatTexts) =>
  buttons(`${orderSummary(order, t.menu)}\n${t.menu.total} ${nairaText(order.total ?? order.amount ?? 0)}`, [
    { id: 'c:pay', title: t.pay },
    { id: 'c:cancel', title: t.cancel },
  ]);

/** The confirmation: what is bought and the total the wallet pays, with Pay and Cancel. */
async function toConfirm(conv: Conversation, order: Order, ctx: ChatContext, t: ChatTexts): Promise<Moved> {
  let total: number;
  try {
    total = await ctx.total(order);
  } catch {
    return home(conv, text(t.menu.unavailable));
  }
  const priced = { ...order, total };
  return to(conv, { at: 'confirm', order: priced }, confirmButtons(priced, t));
}

async function confirm(conv: Conversation, order: Order, input: string, ctx: ChatContext, t: ChatTexts): Promise<Moved> {
  if (input === 'c:cancel') return home(conv, text(t.menu.cancelled));
  if (input !== 'c:pay') return to(conv, conv.place, confirmButtons(order, t));
  const summary = orderSummary(order, t.menu);
  const url = await ctx.pinLink({ kind: 'purchase', order }, summary, order.total ?? order.amount ?? 0);
  return home(conv, text(t.pinLink(`${summary}\n${t.menu.total} ${nairaText(order.total ?? order.amount ?? 0)}`, url)));
}
