import { z } from 'zod';
import type { JobQueue } from '../../jobs/queue.js';
import { HOUR } from '../../kernel/clock.js';
import type { LoanService } from './service.js';

/** The loans' jobs: each loan's due date and reminder, and the hourly sweep behind them. */
export function registerLoanJobs(services: { jobs: JobQueue; loans: LoanService }) {
  const loanId = z.object({ loanId: z.string().uuid() });
  services.jobs.register({ name: 'loans.due', payload: loanId, handler: async (p) => services.loans.processDue(p.loanId) });
  services.jobs.register({ name: 'loans.remind', payload: loanId, handler: async (p) => services.loans.remind(p.loanId) });
  services.jobs.register({ name: 'loans.sweep', payload: z.object({}), handler: async () => services.loans.processAllDue() });
  services.jobs.schedule({ job: 'loans.sweep', everyMs: HOUR });
}
