import type { KindStrings, Translation } from '../app/kinds';

/** The kinds' strings in Hausa: each kind's features/buy/kinds/<kind>/strings-ha.ts (kinds-en.ts tells how). */
const parts = import.meta.glob<Record<string, unknown>>('../features/buy/kinds/*/strings-ha.ts', {
  eager: true,
  import: 'strings',
});
export const haKinds = Object.assign({}, ...Object.values(parts)) as Translation<KindStrings>;
