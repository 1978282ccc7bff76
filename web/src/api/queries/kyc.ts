import { queryOptions } from '@tanstack/react-query';
import * as api from '../calls';

/** KYC: the tiers' states and the bank list of Tier 2. */
export const kycQueries = {
  all: () => ['kyc'] as const,
  status: () => queryOptions({ queryKey: [...kycQueries.all(), 'status'], queryFn: () => api.getKycStatus() }),
  banks: () => queryOptions({ queryKey: [...kycQueries.all(), 'banks'], queryFn: () => api.listBanks(), staleTime: Infinity }),
};
