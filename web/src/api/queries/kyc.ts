import { queryOptions } from '@tanstack/react-query';
import { get } from '../client';

/** KYC: the tiers' states and the bank list of Tier 2. */
export const kycQueries = {
  all: () => ['kyc'] as const,
  status: () => queryOptions({ queryKey: [...kycQueries.all(), 'status'], queryFn: () => get('/_serverFn/getKycStatusBearerKYC') }),
  banks: () =>
    queryOptions({ queryKey: [...kycQueries.all(), 'banks'], queryFn: () => get('/_serverFn/listBanksBearerKYC'), staleTime: Infinity }),
};
