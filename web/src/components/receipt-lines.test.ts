import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { enLater } from '../locales/later-en';
import { haLater } from '../locales/later-ha';
import { receiptLines } from './receipt-lines';

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

describe('price level on receipts', () => {
  it("a receipt's lines: the price level's label translated, a flight's as the service wrote them, in order", async () => {
    const lines = [
      { label: 'PNR', value: 'AB****YZ', mask: true },
      { label: 'Price level', value: 'Agent' },
    ];
    expect(receiptLines(lines, await translate('en'))).toEqual([
      ['PNR', 'AB****YZ'],
      ['Price level', 'Agent'],
    ]);
    expect(receiptLines(lines, await translate('ha'))).toEqual([
      ['PNR', 'AB****YZ'],
      ['Matakin farashi', 'Agent'],
    ]);
    // A flight's departure, written by the service as an ISO instant, as the app writes dates (Lagos time).
    expect(receiptLines([{ label: 'Departure', value: '2026-12-10T07:30:00.000Z' }], await translate('en'))).toEqual([
      ['Departure', '10 Dec 2026, 08:30'],
    ]);
    // A receipt without lines (a wallet line, a default-level purchase) adds none; a label named like a built-in stays.
    expect(receiptLines(undefined, await translate('en'))).toEqual([]);
    expect(receiptLines([{ label: 'constructor', value: 'x' }], await translate('en'))).toEqual([['constructor', 'x']]);
  });
});
