import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { get, type GetInput } from '../client';

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
      queryFn: () => get('/_serverFn/adminListKycSubmissionsBearerAdmin', q),
      ...paged,
    }),
  kyc: (submissionId: string) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'kyc', 'one', submissionId],
      queryFn: () => get('/_serverFn/adminGetKycSubmissionBearerAdmin', { submissionId }),
      // The files' signed addresses expire after minutes: ask again rather than show a dead link.
      staleTime: 60_000,
    }),
  stuck: (q: In<'/_serverFn/adminListStuckVtuTransactionsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'stuck', q],
      queryFn: () => get('/_serverFn/adminListStuckVtuTransactionsBearerAdmin', q),
      ...paged,
    }),
  airtimeCash: (q: In<'/_serverFn/adminListAirtimeCashRequestsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'airtimeCash', q],
      queryFn: () => get('/_serverFn/adminListAirtimeCashRequestsBearerAdmin', q),
      ...paged,
    }),
  withdrawals: (q: In<'/_serverFn/adminListWithdrawalsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'withdrawals', q],
      queryFn: () => get('/_serverFn/adminListWithdrawalsBearerAdmin', q),
      ...paged,
    }),
  transactions: (q: In<'/_serverFn/adminSearchTransactionsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'transactions', q],
      queryFn: () => get('/_serverFn/adminSearchTransactionsBearerAdmin', q),
      ...paged,
    }),
  payments: (q: In<'/_serverFn/adminSearchPaymentsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'payments', q],
      queryFn: () => get('/_serverFn/adminSearchPaymentsBearerAdmin', q),
      ...paged,
    }),
  deadLetters: (q: In<'/_serverFn/adminListDeadLettersBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'deadLetters', q],
      queryFn: () => get('/_serverFn/adminListDeadLettersBearerAdmin', q),
      ...paged,
    }),
  supportThreads: (q: In<'/_serverFn/adminListSupportThreadsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'support', 'threads', q],
      queryFn: () => get('/_serverFn/adminListSupportThreadsBearerAdmin', q),
      ...paged,
    }),
  threadMessages: (q: In<'/_serverFn/adminListThreadMessagesBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'support', 'messages', q],
      queryFn: () => get('/_serverFn/adminListThreadMessagesBearerAdmin', q),
    }),
  cannedReplies: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'support', 'canned'],
      queryFn: () => get('/_serverFn/adminListCannedRepliesBearerAdmin'),
    }),
  transactionReports: (q: In<'/_serverFn/adminListTransactionReportsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'reports', 'transactions', q],
      queryFn: () => get('/_serverFn/adminListTransactionReportsBearerAdmin', q),
      ...paged,
    }),
  issueReports: (q: In<'/_serverFn/adminListIssueReportsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'reports', 'issues', q],
      queryFn: () => get('/_serverFn/adminListIssueReportsBearerAdmin', q),
      ...paged,
    }),
  broadcasts: (q: In<'/_serverFn/adminListBroadcastsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'broadcasts', q],
      queryFn: () => get('/_serverFn/adminListBroadcastsBearerAdmin', q),
      ...paged,
    }),
  poll: (pollId: string) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'poll', pollId],
      queryFn: () => get('/_serverFn/adminGetPollResultsBearerAdmin', { pollId }),
      // Customers keep voting: the results on screen follow.
      refetchInterval: 15_000,
    }),
  markups: () =>
    queryOptions({ queryKey: [...adminQueries.all(), 'markups'], queryFn: () => get('/_serverFn/adminListMarkupsBearerAdmin') }),
  floats: () =>
    queryOptions({ queryKey: [...adminQueries.all(), 'floats'], queryFn: () => get('/_serverFn/adminListProviderFloatsBearerAdmin') }),
  /** Issue 45: a service's plans with wholesale and each price level's price and margin. */
  planPrices: (q: In<'/_serverFn/adminCatalogueBearerAdmin'>) =>
    queryOptions({ queryKey: [...adminQueries.all(), 'plan-prices', q], queryFn: () => get('/_serverFn/adminCatalogueBearerAdmin', q) }),
  growth: () =>
    queryOptions({ queryKey: [...adminQueries.all(), 'growth'], queryFn: () => get('/_serverFn/adminGetGrowthSettingsBearerAdmin') }),
  loans: (q: In<'/_serverFn/adminListLoansBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'loans', q],
      queryFn: () => get('/_serverFn/adminListLoansBearerAdmin', q),
      ...paged,
    }),
  products: (q: In<'/_serverFn/adminListMarketplaceProductsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'products', q],
      queryFn: () => get('/_serverFn/adminListMarketplaceProductsBearerAdmin', q),
      ...paged,
    }),
  marketplaceOrders: (q: In<'/_serverFn/adminListMarketplaceOrdersBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'marketplaceOrders', q],
      queryFn: () => get('/_serverFn/adminListMarketplaceOrdersBearerAdmin', q),
      ...paged,
    }),
  plans: (q: In<'/_serverFn/adminListSubscriptionPlansBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'plans', q],
      queryFn: () => get('/_serverFn/adminListSubscriptionPlansBearerAdmin', q),
    }),
  subscriptionOrders: (q: In<'/_serverFn/adminListSubscriptionOrdersBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'subscriptionOrders', q],
      queryFn: () => get('/_serverFn/adminListSubscriptionOrdersBearerAdmin', q),
      ...paged,
    }),
  /** Who is signed in: the console opens only for an operator. */
  me: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'me'],
      queryFn: () => get('/_serverFn/getProfileBearerSettings'),
      staleTime: 60_000,
    }),
};

/** Issue #30's operations: customers, four-eyes approvals, dashboard panels, jobs, operator sessions and passkeys. */
export const consoleQueries = {
  customers: (q: In<'/_serverFn/adminSearchCustomersBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'customers', 'search', q],
      queryFn: () => get('/_serverFn/adminSearchCustomersBearerAdmin', q),
      enabled: q.q.trim().length >= 3,
      ...paged,
    }),
  customer: (userId: string) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'customers', 'one', userId],
      queryFn: () => get('/_serverFn/adminGetCustomerBearerAdmin', { userId }),
    }),
  approvals: (q: In<'/_serverFn/adminListApprovalsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'approvals', 'list', q],
      queryFn: () => get('/_serverFn/adminListApprovalsBearerAdmin', q),
      ...paged,
    }),
  approvalSettings: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'approvals', 'settings'],
      queryFn: () => get('/_serverFn/adminGetApprovalSettingsBearerAdmin'),
    }),
  volume: (q: In<'/_serverFn/adminDashboardVolumeBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'dash', 'volume', q],
      queryFn: () => get('/_serverFn/adminDashboardVolumeBearerAdmin', q),
    }),
  providers: (q: In<'/_serverFn/adminDashboardProvidersBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'dash', 'providers', q],
      queryFn: () => get('/_serverFn/adminDashboardProvidersBearerAdmin', q),
    }),
  floats: () =>
    queryOptions({ queryKey: [...adminQueries.all(), 'dash', 'floats'], queryFn: () => get('/_serverFn/adminDashboardFloatsBearerAdmin') }),
  /** What waits for an operator: the dashboard's tiles and the navigation's badges, polled (a background call, console/activity.ts). */
  queues: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'dash', 'queues'],
      queryFn: () => get('/_serverFn/adminDashboardQueuesBearerAdmin'),
      refetchInterval: 30_000,
    }),
  job: (jobId: string) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'jobs', 'one', jobId],
      queryFn: () => get('/_serverFn/adminGetJobBearerAdmin', { jobId }),
      // Poll while the job runs; stop when it is done or failed.
      refetchInterval: (q) => (q.state.data && ['done', 'failed'].includes(q.state.data.status) ? false : 1000),
    }),
  jobs: (q: In<'/_serverFn/adminListJobsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'jobs', 'list', q],
      queryFn: () => get('/_serverFn/adminListJobsBearerAdmin', q),
      ...paged,
    }),
  operatorSessions: (q: In<'/_serverFn/adminListOperatorSessionsBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'operators', 'sessions', q],
      queryFn: () => get('/_serverFn/adminListOperatorSessionsBearerAdmin', q),
    }),
  passkeys: () =>
    queryOptions({ queryKey: [...adminQueries.all(), 'passkeys'], queryFn: () => get('/_serverFn/adminListPasskeysBearerAdmin') }),
};

/** Operators, their roles, and the audit trail (issue #30, owner roles). */
export const operatorQueries = {
  operators: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'operators', 'list'],
      queryFn: () => get('/_serverFn/adminListOperatorsBearerAdmin'),
    }),
  /** Pending operator invitations (issue 44); under 'operators', so a grant or revocation refreshes them too. */
  invitations: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'operators', 'invitations'],
      queryFn: () => get('/_serverFn/adminListInvitationsBearerAdmin'),
    }),
  audit: (q: In<'/_serverFn/adminSearchAuditBearerAdmin'>) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'audit', q],
      queryFn: () => get('/_serverFn/adminSearchAuditBearerAdmin', q),
      ...paged,
    }),
};
