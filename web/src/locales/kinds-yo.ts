import type { KindStrings, Translation } from '../app/kinds';

/** The kinds' strings in Yorùbá: each kind's features/buy/kinds/<kind>/strings-yo.ts (kinds-en.ts tells how). */
const parts = import.meta.glob<Record<string, unknown>>('../features/buy/kinds/*/strings-yo.ts', {
  eager: true,
  import: 'strings',
});
export const yoKinds = Object.assign({}, ...Object.values(parts)) as Translation<KindStrings>;
