import type { KindStrings, Translation } from '../app/kinds';

/** The kinds' strings in Yorùbá: each kind's app/strings-yo.ts (kinds-en.ts tells how). */
const parts = import.meta.glob<Record<string, unknown>>('../../../src/modules/vtu/kinds/*/app/strings-yo.ts', {
  eager: true,
  import: 'strings',
});
export const yoKinds = Object.assign({}, ...Object.values(parts)) as Translation<KindStrings>;
