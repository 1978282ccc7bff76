import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { get, type GetInput } from '../client';
import * as api from '../calls';

/**
 * The operator console's reads (issue #30): one factory per admin operation, keyed by its inputs so a filter or page
 * change is its own cached answer. Paged lists keep the previous page on screen while the next one loads. Only the
 * console imports this file, so it lives in the console's chunks.
 */
const paged = { placeholderData: keepPreviousData } as const;
type In<P extends Parameters<typeof get>[0]> = NonNullable<GetInput<P>>;

export const adminQueries = {
  all: () => ['admin'] as const,
  kycList: (q: In<'/_serverFn/adminListKycSubmissionsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'kyc', 'list', q],
      queryFn: () => api.adminListKycSubmissions(q),
      ...paged,
    }),
  kyc: (submissionId: string) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'kyc', 'one', submissionId],
      queryFn: () => api.adminGetKycSubmission({ submissionId }),
      // The files' signed addresses expire after minutes: ask again rather than show a dead link.
      staleTime: 60_000,
    }),
  stuck: (q: In<'/_serverFn/adminListStuckVtuTransactionsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'stuck', q],
      queryFn: () => api.adminListStuckVtuTransactions(q),
      ...paged,
    }),
  airtimeCash: (q: In<'/_serverFn/adminListAirtimeCashRequestsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'airtimeCash', q],
      queryFn: () => api.adminListAirtimeCashRequests(q),
      ...paged,
    }),
  withdrawals: (q: In<'/_serverFn/adminListWithdrawalsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'withdrawals', q],
      queryFn: () => api.adminListWithdrawals(q),
      ...paged,
    }),
  transactions: (q: In<'/_serverFn/adminSearchTransactionsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'transactions', q],
      queryFn: () => api.adminSearchTransactions(q),
      ...paged,
    }),
  payments: (q: In<'/_serverFn/adminSearchPaymentsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'payments', q],
      queryFn: () => api.adminSearchPayments(q),
      ...paged,
    }),
  deadLetters: (q: In<'/_serverFn/adminListDeadLettersBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'deadLetters', q],
      queryFn: () => api.adminListDeadLetters(q),
      ...paged,
    }),
  supportThreads: (q: In<'/_serverFn/adminListSupportThreadsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'support', 'threads', q],
      queryFn: () => api.adminListSupportThreads(q),
      ...paged,
    }),
  threadMessages: (q: In<'/_serverFn/adminListThreadMessagesBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'support', 'messages', q],
      queryFn: () => api.adminListThreadMessages(q),
    }),
  cannedReplies: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'support', 'canned'],
      queryFn: () => api.adminListCannedReplies(),
    }),
  transactionReports: (q: In<'/_serverFn/adminListTransactionReportsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'reports', 'transactions', q],
      queryFn: () => api.adminListTransactionReports(q),
      ...paged,
    }),
  issueReports: (q: In<'/_serverFn/adminListIssueReportsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'reports', 'issues', q],
      queryFn: () => api.adminListIssueReports(q),
      ...paged,
    }),
  broadcasts: (q: In<'/_serverFn/adminListBroadcastsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'broadcasts', q],
      queryFn: () => api.adminListBroadcasts(q),
      ...paged,
    }),
  poll: (pollId: string) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'poll', pollId],
      queryFn: () => api.adminGetPollResults({ pollId }),
      // Customers keep voting: the results on screen follow.
      refetchInterval: 15_000,
    }),
  markups: () => queryOptions({ queryKey: [...adminQueries.all(), 'markups'], queryFn: () => api.adminListMarkups() }),
  floats: () => queryOptions({ queryKey: [...adminQueries.all(), 'floats'], queryFn: () => api.adminListProviderFloats() }),
  /** Issue 45: a service's plans with wholesale and each price level's price and margin. */
  planPrices: (q: In<'/_serverFn/adminCatalogueBearerAdmin'>) =>
    queryOptions({ queryKey: [...adminQueries.all(), 'plan-prices', q], queryFn: () => api.adminCatalogue(q) }),
  growth: () => queryOptions({ queryKey: [...adminQueries.all(), 'growth'], queryFn: () => api.adminGetGrowthSettings() }),
  loans: (q: In<'/_serverFn/adminListLoansBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'loans', q],
      queryFn: () => api.adminListLoans(q),
      ...paged,
    }),
  products: (q: In<'/_serverFn/adminListMarketplaceProductsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'products', q],
      queryFn: () => api.adminListMarketplaceProducts(q),
      ...paged,
    }),
  marketplaceOrders: (q: In<'/_serverFn/adminListMarketplaceOrdersBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'marketplaceOrders', q],
      queryFn: () => api.adminListMarketplaceOrders(q),
      ...paged,
    }),
  plans: (q: In<'/_serverFn/adminListSubscriptionPlansBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'plans', q],
      queryFn: () => api.adminListSubscriptionPlans(q),
    }),
  subscriptionOrders: (q: In<'/_serverFn/adminListSubscriptionOrdersBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'subscriptionOrders', q],
      queryFn: () => api.adminListSubscriptionOrders(q),
      ...paged,
    }),
  /** Who is signed in: the console opens only for an operator. */
  me: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'me'],
      queryFn: () => api.getProfile(),
      staleTime: 60_000,
    }),
};

/** Issue #30's operations: customers, four-eyes approvals, dashboard panels, jobs, operator sessions and passkeys. */
export const consoleQueries = {
  customers: (q: In<'/_serverFn/adminSearchCustomersBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'customers', 'search', q],
      queryFn: () => api.adminSearchCustomers(q),
      enabled: q.q.trim().length >= 3,
      ...paged,
    }),
  customer: (userId: string) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'customers', 'one', userId],
      queryFn: () => api.adminGetCustomer({ userId }),
    }),
  approvals: (q: In<'/_serverFn/adminListApprovalsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'approvals', 'list', q],
      queryFn: () => api.adminListApprovals(q),
      ...paged,
    }),
  approvalSettings: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'approvals', 'settings'],
      queryFn: () => api.adminGetApprovalSettings(),
    }),
  volume: (q: In<'/_serverFn/adminDashboardVolumeBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'dash', 'volume', q],
      queryFn: () => api.adminDashboardVolume(q),
    }),
  providers: (q: In<'/_serverFn/adminDashboardProvidersBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'dash', 'providers', q],
      queryFn: () => api.adminDashboardProviders(q),
    }),
  floats: () => queryOptions({ queryKey: [...adminQueries.all(), 'dash', 'floats'], queryFn: () => api.adminDashboardFloats() }),
  /** What waits for an operator: the dashboard's tiles and the navigation's badges, polled (a background call, console/activity.ts). */
  queues: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'dash', 'queues'],
      queryFn: () => api.adminDashboardQueues(),
      refetchInterval: 30_000,
    }),
  job: (jobId: string) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'jobs', 'one', jobId],
      queryFn: () => api.adminGetJob({ jobId }),
      // Poll while the job runs; stop when it is done or failed.
      refetchInterval: (q) => (q.state.data && ['done', 'failed'].includes(q.state.data.status) ? false : 1000),
    }),
  jobs: (q: In<'/_serverFn/adminListJobsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'jobs', 'list', q],
      queryFn: () => api.adminListJobs(q),
      ...paged,
    }),
  operatorSessions: (q: In<'/_serverFn/adminListOperatorSessionsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'operators', 'sessions', q],
      queryFn: () => api.adminListOperatorSessions(q),
    }),
  passkeys: () => queryOptions({ queryKey: [...adminQueries.all(), 'passkeys'], queryFn: () => api.adminListPasskeys() }),
};

/** Operators, their roles, and the audit trail (issue #30, owner roles). */
export const operatorQueries = {
  operators: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'operators', 'list'],
      queryFn: () => api.adminListOperators(),
    }),
  /** Pending operator invitations (issue 44); under 'operators', so a grant or revocation refreshes them too. */
  invitations: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'operators', 'invitations'],
      queryFn: () => api.adminListInvitations(),
    }),
  audit: (q: In<'/_serverFn/adminSearchAuditBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'audit', q],
      queryFn: () => api.adminSearchAudit(q),
      ...paged,
    }),
};
