import { describe, expect, it } from 'vitest';
import { enPurchases as en } from '../locales/purchases-en';
import { capitalised, planName, productLabel, productName, statusKey, statusWord } from './catalogue-labels';

describe('catalogue labels as people read them (issue 43)', () => {
  it('data plan names: the size only, with a space, no trailing zeros', () => {
    expect(planName('500.0MB SME/CG/GIFTING')).toBe('500 MB');
    expect(planName('1.0GB SME')).toBe('1 GB');
    expect(planName('1.50GB Corporate')).toBe('1.5 GB');
    expect(planName('10GB')).toBe('10 GB');
    expect(planName('Night plan')).toBe('Night plan');
  });
  it('product names: the brand as it writes itself', () => {
    expect(productName('DSTV Subscription')).toBe('DStv');
    expect(productName('GOTV Max')).toBe('GOtv');
    expect(productName('Startimes')).toBe('StarTimes');
    expect(productName('Ikeja Electric')).toBe('Ikeja Electric');
  });
  it('lower-case words are capitalised', () => {
    expect(capitalised('prepaid')).toBe('Prepaid');
    expect(capitalised('')).toBe('');
  });
  it("a purchase's product outside the buy screen: receipts, history", () => {
    expect(productLabel('cable', 'dstv')).toBe('DStv');
    expect(productLabel('cable', 'gotv')).toBe('GOtv');
    expect(productLabel('electricity', 'ikeja-electric')).toBe('Ikeja Electric');
    expect(productLabel('betting', 'bet9ja')).toBe('Bet9ja');
    expect(productLabel('exam', 'waec')).toBe('WAEC');
    expect(productLabel('data', '500.0MB SME/CG/GIFTING')).toBe('500 MB');
    expect(productLabel('esim', 'NG-7D-1GB')).toBe('NG-7D-1GB');
  });
  it('a status in words: "success" is never shown as it is stored', () => {
    expect(statusKey('success')).toBe('result.success');
    expect(statusKey('pending')).toBe('result.processing');
    expect(statusKey('completed')).toBe('result.completed');
    expect(statusKey('weird')).toBeNull();
    const word = (k: string) => String((en.result as Record<string, string>)[k.replace('result.', '')]);
    expect(statusWord('success', word)).toBe('Successful');
    expect(statusWord('completed', word)).toBe('Completed');
    expect(statusWord('on_hold', word)).toBe('On_hold');
  });
});
