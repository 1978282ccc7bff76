import { KIND_TABS } from './kind-tabs';
import type { BuyService, KindTab } from './kinds';

export type { BuyService };

/**
 * The buy screen's tabs, in their order: each kind's features/buy/kinds/<kind>/tab.ts, found there
 * (app/kind-tabs.ts), none listed here. Read by the buy screens, drafts and repeat links; the router types /buy's
 * search with BuyService alone (a type).
 */
export const BUY_TABS: readonly KindTab[] = [...KIND_TABS.values()].sort((a, b) => a.order - b.order);
export const BUY_SERVICES: readonly BuyService[] = BUY_TABS.map((t) => t.service);

/** `service` when it is one of the tabs, else the first tab (an address typed by hand may name anything). */
export const buyServiceOr = (service: string | undefined): BuyService => BUY_SERVICES.find((s) => s === service) ?? BUY_SERVICES[0];
