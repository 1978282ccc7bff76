import type { BuyService, KindScreen, KindTab } from '../../app/kinds';

/**
 * Each kind's screen (its tab) and result part, from src/modules/vtu/kinds/<kind>/app/screen.tsx (app/kinds.ts), keyed
 * by the service of the tab.ts beside it, in the tabs' order. Part of the buy screens' code, so loaded with them.
 */
const screens = import.meta.glob<KindScreen>('../../../../src/modules/vtu/kinds/*/app/screen.tsx', { eager: true });
const tabs = import.meta.glob<KindTab>('../../../../src/modules/vtu/kinds/*/app/tab.ts', { eager: true, import: 'tab' });
const byOrder = Object.entries(screens)
  .map(([path, screen]) => ({ tab: tabs[path.replace(/screen\.tsx$/, 'tab.ts')], screen }))
  .filter((k) => k.tab !== undefined)
  .sort((a, b) => a.tab.order - b.tab.order);

export const KIND_SCREENS: Partial<Record<BuyService, KindScreen>> = Object.fromEntries(byOrder.map((k) => [k.tab.service, k.screen]));
/** The kinds' parts of the purchase result screen, in the tabs' order (each draws nothing for another kind's purchase). */
export const KIND_RESULTS = byOrder.flatMap((k) => (k.screen.Result ? [k.screen.Result] : []));
