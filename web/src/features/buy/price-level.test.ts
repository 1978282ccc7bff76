import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { enLater } from '../../locales/later-en';
import { haLater } from '../../locales/later-ha';
import { levelLines } from './price-level';

/**
 * Issue 45: the price level on a purchase's review and on its receipts. The review names a level other than the
 * default one; a receipt's own lines are shown in order, the price level's label in the reader's language and the
 * service's other labels as it wrote them.
 */
const translate = async (lng: 'en' | 'ha') => {
  const i = i18next.createInstance();
  await i.init({ resources: { en: { translation: enLater }, ha: { translation: haLater } }, lng, interpolation: { escapeValue: false } });
  return (key: 'buy.priceLevel') => i.t(key);
};

describe('price level on the review', () => {
  it("the review names an Agent's level, not the default customer's", async () => {
    const t = await translate('en');
    expect(levelLines({ id: 'agent', name: 'Agent' }, t)).toEqual([['Price level', 'Agent']]);
    expect(levelLines({ id: 'customer', name: 'Customer' }, t)).toEqual([]);
    expect(levelLines(undefined, t)).toEqual([]);
    expect(levelLines({ id: 'reseller', name: 'Dealer' }, await translate('ha'))).toEqual([['Matakin farashi', 'Dealer']]);
  });
});
