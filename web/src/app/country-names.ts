/**
 * Country names in Hausa, Naijá and Yoruba (issue 43). Chromium's Intl.DisplayNames has no names in these languages,
 * so an eSIM destination read "United Kingdom" in every language. These are CLDR's names for the countries the eSIM
 * catalogue offers and the ones our customers travel to most; any other country gets the browser's name when it has
 * one in that language, else the provider's English name. English always reads the provider's name. Loaded with the
 * eSIM screen only (about 1 KB), never on the first screen.
 */
const NAMES: Record<'ha' | 'pcm' | 'yo', Record<string, string>> = {
  ha: {
    ae: 'Haɗaɗɗiyar Daular Larabawa',
    bj: 'Binin',
    ca: 'Kanada',
    cm: 'Kamaru',
    cn: 'Sin',
    de: 'Jamus',
    eg: 'Misira',
    fr: 'Faransa',
    gb: 'Biritaniya',
    gh: 'Gana',
    in: 'Indiya',
    ke: 'Kenya',
    ng: 'Najeriya',
    qa: 'Katar',
    sa: 'Saudiyya',
    tr: 'Turkiyya',
    us: 'Amurka',
    za: 'Afirka ta Kudu',
  },
  pcm: {
    ae: 'Yunaítẹ́d Áráb Ẹ́mírets',
    bj: 'Binin',
    ca: 'Kánáda',
    cm: 'Kamẹrun',
    cn: 'Chaína',
    de: 'Jámáni',
    eg: 'Íjipt',
    fr: 'Frans',
    gb: 'Yunáítẹ́d Kíndọm',
    gh: 'Gána',
    in: 'Índia',
    ke: 'Kẹ́nya',
    ng: 'Naijíria',
    qa: 'Kata',
    sa: 'Saúdí Arébia',
    tr: 'Tọ́ki',
    us: 'Yunaítẹ́d Stets',
    za: 'Saút Áfríka',
  },
  yo: {
    ae: 'Ẹmirate ti Awọn Arabu',
    bj: 'Bẹ̀nẹ̀',
    ca: 'Kánádà',
    cm: 'Kamerúúnì',
    cn: 'Ṣáínà',
    de: 'Jámánì',
    eg: 'Égípítì',
    fr: 'Faranse',
    gb: 'Gẹ̀ẹ́sì',
    gh: 'Gana',
    in: 'India',
    ke: 'Kenya',
    ng: 'Nàìjíríà',
    qa: 'Kota',
    sa: 'Sáúdí Arábíà',
    tr: 'Tọọki',
    us: 'Amẹrikà',
    za: 'Gúúṣù Áfíríkà',
  },
};

const pageLanguage = () => (typeof document === 'undefined' ? 'en' : document.documentElement.lang || 'en');

/** The countries our own names cover in every language (the eSIM catalogue's must be among them). */
export const NAMED_COUNTRIES: readonly string[] = Object.keys(NAMES.ha);

/**
 * A country's name in the page's language from its ISO code: ours (above), else Intl.DisplayNames where the browser
 * has names in that language, else `fallback` (the provider's English name; also for a code that is not a country's).
 */
export function countryName(code: string, fallback: string, lang: string = pageLanguage()): string {
  if (lang === 'en' || !/^[a-z]{2}$/i.test(code)) return fallback;
  const own = (NAMES as Record<string, Record<string, string> | undefined>)[lang]?.[code.toLowerCase()];
  if (own) return own;
  if (typeof Intl.DisplayNames !== 'function') return fallback;
  const names = new Intl.DisplayNames([`${lang}-NG`], { type: 'region', fallback: 'none' });
  if (!names.resolvedOptions().locale.startsWith(lang)) return fallback;
  return names.of(code.toUpperCase()) ?? fallback;
}
