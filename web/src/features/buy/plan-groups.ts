/**
 * Data plans grouped the way people shop for them, by their real validity: daily, weekly (up to 8 days), two weeks
 * (a 14-day plan is not weekly, issue 43), monthly, longer.
 */
export const VALIDITY_GROUPS = ['daily', 'weekly', 'twoWeeks', 'monthly', 'longer', 'other'] as const;
export type ValidityGroup = (typeof VALIDITY_GROUPS)[number];

const UNIT_DAYS: Record<string, number> = { hr: 1 / 24, hour: 1 / 24, day: 1, week: 7, month: 30, year: 365 };

/** Days a provider's validity text stands for ("30 days", "1 Week", "24hrs", "Monthly"); null when unknown. */
export function validityDays(text: string): number | null {
  const v = text.trim().toLowerCase();
  const named: Record<string, number> = { daily: 1, weekly: 7, monthly: 30, yearly: 365 };
  if (v in named) return named[v]!;
  const m = /^(\d+(?:\.\d+)?)\s*(hr|hour|day|week|month|year)s?$/.exec(v) ?? /^(\d+(?:\.\d+)?)\s*(d)$/.exec(v);
  if (!m) return null;
  return Number(m[1]) * (m[2] === 'd' ? 1 : UNIT_DAYS[m[2]!]!);
}

export function validityGroup(text: string): ValidityGroup {
  const d = validityDays(text);
  if (d === null) return 'other';
  if (d <= 2) return 'daily';
  if (d <= 8) return 'weekly';
  if (d <= 20) return 'twoWeeks';
  if (d <= 31) return 'monthly';
  return 'longer';
}

/** The plans in validity order (daily first), each group cheapest first; empty groups left out. */
export function groupPlans<P extends { validity: string; price: number }>(plans: P[]): { group: ValidityGroup; items: P[] }[] {
  return VALIDITY_GROUPS.map((group) => ({
    group,
    items: plans.filter((p) => validityGroup(p.validity) === group).sort((a, b) => a.price - b.price),
  })).filter((g) => g.items.length > 0);
}
