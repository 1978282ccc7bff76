import { describe, expect, it } from 'vitest';
import { groupPlans, validityDays, validityGroup } from './plan-groups';

describe('data plans by validity', () => {
  it('reads the providers validity texts', () => {
    expect(validityDays('30 days')).toBe(30);
    expect(validityDays('1 Day')).toBe(1);
    expect(validityDays('24hrs')).toBe(1);
    expect(validityDays('2 weeks')).toBe(14);
    expect(validityDays('Monthly')).toBe(30);
    expect(validityDays('7d')).toBe(7);
    expect(validityDays('till midnight')).toBeNull();
  });
  it('groups daily, weekly, two weeks, monthly, longer and the unknown last', () => {
    expect(['1 day', '7 days', '14 days', '2 weeks', '30 days', '90 days', 'night'].map(validityGroup)).toEqual([
      'daily',
      'weekly',
      'twoWeeks',
      'twoWeeks',
      'monthly',
      'longer',
      'other',
    ]);
    const plans = [
      { validity: '30 days', price: 560 },
      { validity: '1 day', price: 100 },
      { validity: '30 days', price: 280 },
    ];
    expect(groupPlans(plans)).toEqual([
      { group: 'daily', items: [{ validity: '1 day', price: 100 }] },
      {
        group: 'monthly',
        items: [
          { validity: '30 days', price: 280 },
          { validity: '30 days', price: 560 },
        ],
      },
    ]);
  });
});
