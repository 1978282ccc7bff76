import { lazy, type ComponentType } from 'react';
import { KIND_TABS } from '../../app/kind-tabs';
import type { BuyService, KindScreen } from '../../app/kinds';

/**
 * Each kind's screen (its tab), from kinds/<kind>/screen.tsx (app/kinds.ts), keyed by the service of the tab.ts beside
 * it. Each kind's code is a chunk of its own, loaded when its tab is first shown: the buy screen loads, evaluates and
 * draws the one kind it shows, not all of them (its longest task at load, Lighthouse's total blocking time:
 * docs/benchmarks.md). The result screen's parts of the kinds are kind-results.ts.
 */
const loaders = import.meta.glob<KindScreen>('./kinds/*/screen.tsx');

/** A kind's screen module, by its service (the test loads each). */
export const KIND_SCREEN_LOADERS: Partial<Record<BuyService, () => Promise<KindScreen>>> = Object.fromEntries(
  Object.entries(loaders).flatMap(([path, load]) => {
    const tab = KIND_TABS.get(path.split('/')[2]);
    return tab ? [[tab.service, load]] : [];
  }),
);

/**
 * A kind's tab, drawn once its code has loaded (under a Suspense boundary: features/buy/Buy.tsx), in the task after the
 * one that evaluated the code: together they were one long task (the same reason as app/later.tsx).
 */
export const KIND_SCREENS: Partial<Record<BuyService, ComponentType>> = Object.fromEntries(
  Object.entries(KIND_SCREEN_LOADERS).map(([service, load]) => [
    service,
    lazy(() => load!().then((m) => new Promise<{ default: ComponentType }>((drawn) => setTimeout(() => drawn({ default: m.Screen }), 0)))),
  ]),
);
