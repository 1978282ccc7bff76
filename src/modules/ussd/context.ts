import type { Network } from '../../kernel/phone.js';
import { AppError } from '../../kernel/errors.js';
import type { Services } from '../../platform/services.js';
import type { MenuContext, PinAnswer, Plan, Saved } from './menu.js';
import { quoteOf } from './order.js';
import { nairaText } from './texts.js';

/** What the menu's reads use: the other modules' services. */
export type ReadDeps = Pick<Services, 'vtu' | 'pins' | 'wallet' | 'beneficiaries'>;
type VtuServiceApi = Services['vtu'];
type PinService = Services['pins'];
type WalletService = Services['wallet'];
type BeneficiaryService = Services['beneficiaries'];

/** The transaction PIN checked by identity's PinService: the app's tries and lock, shared. */
export async function checkPin(pins: PinService, userId: string, pin: string): Promise<PinAnswer> {
  try {
    await pins.verify(userId, 'transaction', pin);
    return { ok: true };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'INVALID_PIN') return { ok: false, triesLeft: Number(err.details?.triesLeft ?? 0) };
    if (err.code === 'PIN_LOCKED') return { ok: false, lockedMinutes: Math.max(1, Math.ceil((err.retryAfter ?? 60) / 60)) };
    if (err.code === 'PIN_NOT_SET') return { ok: false, notSet: true };
    throw err;
  }
}

/** The wallet's last five lines, each short: "02/12 -N500 Airtime for 0803...". */
async function history(wallet: WalletService, userId: string): Promise<string[]> {
  const state = await wallet.state(userId, 5);
  return state.log.map((l) => {
    const d = new Date(l.createdAt);
    const day = `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    const line = `${day} ${l.amount < 0 ? '-' : '+'}${nairaText(Math.abs(l.amount))} ${l.description}`;
    return line.length > 34 ? `${line.slice(0, 33)}.` : line;
  });
}

/** The retail cable plans of a provider, as the app lists them (listCablePlans). */
async function cablePlans(vtu: VtuServiceApi, userId: string, identifier: string): Promise<Plan[]> {
  const kind = await vtu.kindFor('cable', userId);
  const provider = (await kind.route())[0]!;
  const priced = await kind.retailList(provider, await kind.catalogue(provider, 'cable_plans', identifier));
  return priced.flatMap(({ e, retail }) => (retail === null ? [] : [{ id: e.code, name: e.name, price: Number(retail) / 100 }]));
}

async function saved(beneficiaries: BeneficiaryService, userId: string): Promise<Saved[]> {
  const [meters, cards] = await Promise.all([beneficiaries.list(userId, 'meter'), beneficiaries.list(userId, 'smartcard')]);
  return [...meters.items, ...cards.items].flatMap((b) =>
    b.provider && (b.kind === 'meter' || b.kind === 'smartcard')
      ? [{ kind: b.kind, label: b.label, recipient: b.recipient, provider: b.provider, meterType: b.meterType }]
      : [],
  );
}

/** The menu's reads and checks for one caller (the purchase and the language are the service's). */
export function readsFor(
  deps: ReadDeps,
  caller: { userId: string; ownPhone: string; recent: boolean },
): Omit<MenuContext, 'buy' | 'setLanguage'> {
  const { vtu, pins, wallet, beneficiaries } = deps;
  const { userId } = caller;
  return {
    ownPhone: caller.ownPhone,
    recent: caller.recent,
    balance: async () => (await wallet.state(userId, 1)).balance,
    history: () => history(wallet, userId),
    dataPlans: async (network: Network) =>
      (await vtu.dataPlans(network, undefined, userId)).map((p) => ({
        id: p.plan_id,
        name: `${p.name} ${p.validity}`.trim(),
        price: p.price,
      })),
    cablePlans: (identifier) => cablePlans(vtu, userId, identifier),
    saved: () => saved(beneficiaries, userId),
    total: async (order) => (await vtu.quotePurchase(quoteOf(order) as Parameters<VtuServiceApi['quotePurchase']>[0], userId)).total,
    checkPin: (pin) => checkPin(pins, userId, pin),
  };
}
