import { lazy, type ComponentType } from 'react';
import { KIND_TABS } from '../../app/kind-tabs';
import type { KindResultProps, KindScreen } from '../../app/kinds';

/**
 * The kinds' parts of the purchase result screen (each kind's screen.tsx `Result`, app/kinds.ts), in the tabs' order:
 * each draws nothing for another kind's purchase. Each comes from its kind's own chunk (the one the buy screen loads for
 * that tab, kind-screens.ts), asked for when the result screen draws them (under a Suspense boundary), not listed with
 * the routes: the first screens' code names the routes' chunks (scripts/web-budget.mjs).
 */
const loaders = import.meta.glob<KindScreen>('./kinds/*/screen.tsx');
const none = () => null;

export const KIND_RESULTS: ComponentType<KindResultProps>[] = Object.entries(loaders)
  .flatMap(([path, load]) => {
    const tab = KIND_TABS.get(path.split('/')[2]);
    return tab ? [{ order: tab.order, load }] : [];
  })
  .sort((a, b) => a.order - b.order)
  .map(({ load }) => lazy(() => load().then((m) => ({ default: m.Result ?? none }))));
