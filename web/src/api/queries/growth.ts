import { queryOptions } from '@tanstack/react-query';
import { get } from '../client';

/** Referrals, milestones, check-ins, savings locks and loans. */
export const growthQueries = {
  all: () => ['growth'] as const,
  referral: () =>
    queryOptions({ queryKey: [...growthQueries.all(), 'referral'], queryFn: () => get('/_serverFn/getMyReferralStatusBearerGrowth') }),
  milestones: () =>
    queryOptions({ queryKey: [...growthQueries.all(), 'milestones'], queryFn: () => get('/_serverFn/getPendingMilestonesBearerGrowth') }),
  checkin: () =>
    queryOptions({ queryKey: [...growthQueries.all(), 'checkin'], queryFn: () => get('/_serverFn/getCheckinStatusBearerGrowth') }),
  savings: () =>
    queryOptions({
      queryKey: [...growthQueries.all(), 'savings'],
      queryFn: () => get('/_serverFn/listSavingsLocksBearerSavings', { limit: 50 }),
    }),
  /** Issue 45: my price level and the levels above it. */
  level: () => queryOptions({ queryKey: [...growthQueries.all(), 'level'], queryFn: () => get('/_serverFn/getMyPriceLevelBearerVTU') }),
  loans: () => queryOptions({ queryKey: [...growthQueries.all(), 'loans'], queryFn: () => get('/_serverFn/getLoanOverviewBearerLoans') }),
};
