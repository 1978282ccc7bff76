import { describe, expect, it } from 'vitest';
import { ESIM_REGIONS } from '../../src/modules/vtu/kinds/esim/simulator.js';
import { countryName, NAMED_COUNTRIES } from '../../web/src/app/country-names.js';

/**
 * Issue 43: an eSIM destination's country in Hausa, Naijá and Yoruba, where Chromium's Intl.DisplayNames has no names
 * in these languages: the app's own (CLDR's) names, the browser's for any other country, the provider's English name
 * for English and for what is not a country.
 */
const countries = ESIM_REGIONS.filter((r) => r.kind === 'country');

describe('country names in every language', () => {
  it('every country the eSIM catalogue offers has our own name in ha, pcm and yo, none of them the English one', () => {
    for (const c of countries) {
      expect(NAMED_COUNTRIES).toContain(c.code);
      for (const lang of ['ha', 'pcm', 'yo']) expect(countryName(c.code, c.name, lang), `${c.code} in ${lang}`).not.toBe(c.name);
    }
  });

  it("names a country in the reader's language, whatever the browser knows", () => {
    expect(countryName('gb', 'United Kingdom', 'ha')).toBe('Biritaniya');
    expect(countryName('GB', 'United Kingdom', 'yo')).toBe('Gẹ̀ẹ́sì');
    expect(countryName('us', 'United States', 'pcm')).toBe('Yunaítẹ́d Stets');
    expect(countryName('ae', 'United Arab Emirates', 'ha')).toBe('Haɗaɗɗiyar Daular Larabawa');
    expect(countryName('za', 'South Africa', 'yo')).toBe('Gúúṣù Áfíríkà');
    expect(countryName('cn', 'China', 'pcm')).toBe('Chaína');
  });

  it("English reads the provider's name; a region or an odd code keeps it; another language has no names of ours", () => {
    expect(countryName('gb', 'United Kingdom', 'en')).toBe('United Kingdom');
    expect(countryName('europe', 'Europe (33 countries)', 'ha')).toBe('Europe (33 countries)');
    expect(countryName('g1', 'Somewhere', 'yo')).toBe('Somewhere');
    // A language we have no names for: the runtime's own names, or the provider's.
    expect(countryName('gb', 'United Kingdom', 'fr')).toMatch(/^(Royaume-Uni|United Kingdom)$/);
  });
});
