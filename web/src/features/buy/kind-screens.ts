import { KIND_TABS } from '../../app/kind-tabs';
import type { BuyService, KindScreen } from '../../app/kinds';

/**
 * Each kind's screen (its tab) and result part, from kinds/<kind>/screen.tsx (app/kinds.ts), keyed
 * by the service of the tab.ts beside it, in the tabs' order. Part of the buy screens' code, so loaded with them.
 */
const screens = import.meta.glob<KindScreen>('./kinds/*/screen.tsx', { eager: true });
const byOrder = Object.entries(screens)
  .flatMap(([path, screen]) => {
    const tab = KIND_TABS.get(path.split('/')[2]);
    return tab ? [{ tab, screen }] : [];
  })
  .sort((a, b) => a.tab.order - b.tab.order);

export const KIND_SCREENS: Partial<Record<BuyService, KindScreen>> = Object.fromEntries(byOrder.map((k) => [k.tab.service, k.screen]));
/** The kinds' parts of the purchase result screen, in the tabs' order (each draws nothing for another kind's purchase). */
export const KIND_RESULTS = byOrder.flatMap((k) => (k.screen.Result ? [k.screen.Result] : []));
