import type { KindStrings, Translation } from '../app/kinds';

/** The kinds' strings in Hausa: each kind's app/strings-ha.ts (kinds-en.ts tells how). */
const parts = import.meta.glob<Record<string, unknown>>('../../../src/modules/vtu/kinds/*/app/strings-ha.ts', {
  eager: true,
  import: 'strings',
});
export const haKinds = Object.assign({}, ...Object.values(parts)) as Translation<KindStrings>;
