import type { KindStrings } from '../app/kinds';

/**
 * The strings of the kinds' buy screens in English: each kind's own, web/src/features/buy/kinds/<kind>/strings-en.ts,
 * found there (web/src/app/kinds.ts). One chunk, loaded with the buy screen (app/i18n.ts `loadKindStrings`), so the
 * first screens do not carry them. Same keys in every language (web/src/app/i18n.test.ts).
 */
const parts = import.meta.glob<Record<string, unknown>>('../features/buy/kinds/*/strings-en.ts', {
  eager: true,
  import: 'strings',
});
export const enKinds = Object.assign({}, ...Object.values(parts)) as KindStrings;
