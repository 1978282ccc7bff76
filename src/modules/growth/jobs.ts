import type { Services } from '../../services.js';
import { registerLoanJobs } from '../loans/service.js';
import { registerSavingsJobs } from '../savings/service.js';

/** Savings maturity and loan due-date jobs (per object, at its instant) plus hourly sweeps behind them. */
export function registerGrowthJobs(services: Services) {
  registerSavingsJobs(services);
  registerLoanJobs(services);
}
