// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { formatDateTime, formatNaira } from './format';

// The hand-written cases must give exactly what Intl gives for en-NG (the browser's and Node's ICU agree on these).
const intlNaira = new Intl.NumberFormat('en-NG', {
  style: 'currency',
  currency: 'NGN',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const intlDate = new Intl.DateTimeFormat('en-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' });
// A fixed pseudo-random sequence in [0, 1): the same values every run.
let seed = 29;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

describe('formatNaira', () => {
  it('gives what Intl gives, whole naira, kobo, negative, large and odd values', () => {
    const values = [0, -0, 1, -1, 0.5, 0.05, 1.005, 10.1, 999.99, 1000, 1234.5, -1234.5, 1234567.891, 0.1 + 0.2, 1e15, 123456789012345];
    values.push(Number.NaN, Infinity, -Infinity, 1e21, 1e-7);
    for (let i = 0; i < 2000; i++) values.push(Math.round((random() - 0.3) * 10 ** (1 + (i % 9))) / 100);
    for (let i = 0; i < 200; i++) values.push((random() - 0.5) * 10 ** (i % 12));
    for (const v of values) expect(formatNaira(v), String(v)).toBe(intlNaira.format(v));
    expect(formatNaira(1234.5)).toBe('₦1,234.50');
  });
});

describe('formatDateTime', () => {
  it('gives what Intl gives in Lagos time: every month, around midnight, strings, numbers and dates', () => {
    const times: (string | number | Date)[] = [
      '2026-11-26T06:00:00Z',
      '2026-09-05T13:07:00.000Z',
      '2026-12-31T23:30:00Z',
      '2027-01-01T00:05:00+01:00',
    ];
    for (let m = 0; m < 12; m++) times.push(Date.UTC(2026, m, 5, 13, 7), new Date(Date.UTC(2025, m, 28, 22, 59, 59)));
    for (let i = 0; i < 2000; i++) times.push(Date.UTC(1990, 0, 1) + Math.floor(random() * 60 * 365.25 * 86_400_000));
    times.push(Date.UTC(1900, 5, 1), Date.UTC(12000, 0, 1));
    for (const t of times) expect(formatDateTime(t), String(t)).toBe(intlDate.format(new Date(t)));
    expect(formatDateTime('2026-09-05T13:07:00Z')).toBe('5 Sept 2026, 14:07');
  });
});

describe('dates in the page language (issue 43)', () => {
  it('writes a Hausa reader a Hausa month, and English readers the fast path', () => {
    document.documentElement.lang = 'ha';
    try {
      expect(formatDateTime('2026-12-02T16:30:00Z')).toBe(
        new Intl.DateTimeFormat('ha-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' }).format(
          new Date('2026-12-02T16:30:00Z'),
        ),
      );
      expect(formatDateTime('2026-12-02T16:30:00Z')).toContain('Dis');
    } finally {
      document.documentElement.lang = 'en';
    }
    expect(formatDateTime('2026-12-02T16:30:00Z')).toBe('2 Dec 2026, 17:30');
  });
});
