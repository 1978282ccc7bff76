import { describe, expect, it } from 'vitest';
import { count, oneOf, searchOf, text } from './search';

/**
 * Issue 44: each console screen's query is typed by its route; what the router reads from a hand-edited, old or
 * shared address is parsed, and a value the screen does not take is dropped (the screen's default shows) instead of
 * reaching the service or failing the screen.
 */
const approvals = searchOf({ status: oneOf('pending', 'approved', 'rejected', 'expired'), sort: text, offset: count });

describe('a console screen query', () => {
  it('keeps the values the screen takes, as the router reads them from the address', () => {
    // ?status=approved&offset=20&sort=oldest: the router reads 20 as a number.
    expect(approvals({ status: 'approved', offset: 20, sort: 'oldest' })).toEqual({ status: 'approved', offset: 20, sort: 'oldest' });
    expect(approvals({ offset: '40' })).toEqual({ offset: 40 });
  });

  it('drops an offset that is not a whole number of zero or more, an unknown status and unknown keys', () => {
    // Undefined, not absent: the router lays this over the raw query, where offset is still 'abc'.
    expect(approvals({ offset: 'abc' })).toStrictEqual({ status: undefined, sort: undefined, offset: undefined });
    expect({ offset: 'abc', ...approvals({ offset: 'abc' }) }.offset).toBeUndefined();
    for (const offset of [-1, 2.5, '', null, true, { x: 1 }, '1e3', Number.NaN]) expect(approvals({ offset }), String(offset)).toEqual({});
    expect(approvals({ status: 'deleted', other: 'x' })).toEqual({});
  });

  it('reads a number or boolean the router parsed back as its text, and an empty text as absent', () => {
    expect(text(123)).toBe('123');
    expect(text(false)).toBe('false');
    expect(text('')).toBeUndefined();
    expect(text({ a: 1 })).toBeUndefined();
    expect(oneOf('true', 'false')(false)).toBe('false');
    expect(oneOf('1', '2', '3')(2)).toBe('2');
    expect(count(0)).toBe(0);
  });
});
