import { describe, expect, it } from 'vitest';
import { formatNaira, nairaAmount, wholeNaira } from '../../src/kernel/money.js';

// The schemas' bounds are written without Intl when the app loads them (src/kernel/money.ts): exactly what Intl's
// en-NG gives, whatever the value.
const intl = new Intl.NumberFormat('en-NG', { maximumFractionDigits: 2 });
// A fixed pseudo-random sequence in [0, 1): the same values every run.
let seed = 43;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

describe('wholeNaira', () => {
  it('gives what Intl gives: whole naira, kobo, thousands, negative, large and odd values', () => {
    const values = [0, -0, 1, 2.5, 0.05, 0.1, 50, 100, 999, 1000, 1234.56, 50_000, 1e6, 1e8, 999_999_999_999_999, 1e15, 1e16];
    values.push(-1, -1234.5, 1.005, 0.1 + 0.2, 1e-7, 1e21, Number.NaN, Infinity, -Infinity);
    for (let i = 0; i < 2000; i++) values.push(Math.round(random() * 10 ** (1 + (i % 12))) / 100);
    for (let i = 0; i < 200; i++) values.push((random() - 0.2) * 10 ** (i % 14));
    for (const v of values) expect(wholeNaira(v), String(v)).toBe(`₦${intl.format(v)}`);
  });

  it('writes the bounds of an amount schema into its messages', () => {
    const amount = nairaAmount({ min: 50, max: 1_000_000 });
    expect(amount.safeParse(10).error?.issues[0].message).toBe('Amount must be at least ₦50');
    expect(amount.safeParse(2_000_000).error?.issues[0].message).toBe('Amount can be at most ₦1,000,000');
    expect(formatNaira(123456n)).toBe('₦1,234.56');
  });
});
