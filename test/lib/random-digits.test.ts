import { describe, expect, it } from 'vitest';
import { randomDigits } from '../../src/lib/crypto.js';

describe('randomDigits (one-time codes)', () => {
  it('draws every digit with the same probability', () => {
    // A byte modulo 10 gives 0-5 a chance of 26/256 each and 6-9 25/256: 60.9 % low digits instead of 60 %.
    // With 600,000 digits the standard deviation of that share is 0.06 %, so 0.4 % apart is far outside chance.
    const digits = randomDigits(600_000);
    expect(digits).toMatch(/^\d+$/);
    let low = 0;
    for (const d of digits) if (d < '6') low++;
    expect(Math.abs(low / digits.length - 0.6)).toBeLessThan(0.004);
  });
});
