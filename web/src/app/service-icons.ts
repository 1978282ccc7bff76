import type { KindIcon } from './kinds';

/**
 * Each kind's icon (web/src/features/buy/kinds/<kind>/icon.ts, found there), keyed by its folder (the
 * kind's name, as app/kind-tabs.ts keys the tabs). A chunk of its own, loaded by the service grid (ServiceGrid.tsx) beside the first screen.
 */
const icons = import.meta.glob<KindIcon>('./*/icon.ts', { base: '../features/buy/kinds', eager: true, import: 'icon' });
export const SERVICE_ICONS: ReadonlyMap<string, KindIcon> = new Map(
  Object.entries(icons).map(([path, icon]) => [path.split('/')[1], icon]),
);
