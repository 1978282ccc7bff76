import { queryOptions } from '@tanstack/react-query';
import { adminQueries } from './admin';
import * as api from '../calls';

/**
 * Report, purchase and thread linked (issue 44): a purchase's reports and threads, a thread's reports. Keyed under
 * the console's reads, so what a resolution invalidates there reaches these too.
 */
export const caseQueries = {
  all: () => [...adminQueries.all(), 'reports', 'cases'] as const,
  purchase: (reference: string) =>
    queryOptions({
      queryKey: [...caseQueries.all(), 'purchase', reference],
      queryFn: () => api.adminGetPurchaseCase({ reference }),
    }),
  thread: (threadId: string) =>
    queryOptions({
      queryKey: [...caseQueries.all(), 'thread', threadId],
      queryFn: () => api.adminListThreadReports({ threadId }),
    }),
};
