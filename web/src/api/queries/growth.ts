import { queryOptions } from '@tanstack/react-query';
import * as api from '../calls';

/** Referrals, milestones, check-ins, savings locks and loans. */
export const growthQueries = {
  all: () => ['growth'] as const,
  referral: () => queryOptions({ queryKey: [...growthQueries.all(), 'referral'], queryFn: () => api.getMyReferralStatus() }),
  milestones: () => queryOptions({ queryKey: [...growthQueries.all(), 'milestones'], queryFn: () => api.getPendingMilestones() }),
  checkin: () => queryOptions({ queryKey: [...growthQueries.all(), 'checkin'], queryFn: () => api.getCheckinStatus() }),
  savings: () =>
    queryOptions({
      queryKey: [...growthQueries.all(), 'savings'],
      queryFn: () => api.listSavingsLocks({ limit: 50 }),
    }),
  /** Issue 45: my price level and the levels above it. */
  level: () => queryOptions({ queryKey: [...growthQueries.all(), 'level'], queryFn: () => api.getMyPriceLevel() }),
  loans: () => queryOptions({ queryKey: [...growthQueries.all(), 'loans'], queryFn: () => api.getLoanOverview() }),
};
