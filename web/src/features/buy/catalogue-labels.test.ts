import { describe, expect, it } from 'vitest';
import { capitalised, planName, productName } from './catalogue-labels';

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
});
