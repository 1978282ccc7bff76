import type { KindStrings, Translation } from '../app/kinds';

/** The kinds' strings in Naijá: each kind's features/buy/kinds/<kind>/strings-pcm.ts (kinds-en.ts tells how). */
const parts = import.meta.glob<Record<string, unknown>>('../features/buy/kinds/*/strings-pcm.ts', {
  eager: true,
  import: 'strings',
});
export const pcmKinds = Object.assign({}, ...Object.values(parts)) as Translation<KindStrings>;
