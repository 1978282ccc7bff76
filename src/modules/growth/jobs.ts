import type { Services } from '../../platform/services.js';
import { registerLoanJobs } from '../loans/api.js';
import { registerSavingsJobs } from '../savings/api.js';

/** Savings maturity and loan due-date jobs (per object, at its instant) plus hourly sweeps behind them. */
export function registerGrowthJobs(services: Pick<Services, 'jobs' | 'savings' | 'loans'>) {
  registerSavingsJobs(services);
  registerLoanJobs(services);
}
