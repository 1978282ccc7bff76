import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { mayRun, type AuthUser } from '../../kernel/actor.js';
import { naira } from '../../kernel/money.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { channelOperations } from './channel-operations.js';
import { EXPORT_KINDS } from './exports.js';
import { BULK_REQUERY_MAX } from './jobs-deps.js';
import { lagosDay } from './range.js';
import { searchTransactionsInput, searchTransactionsOutput } from './transactions.js';

const defineOperation = operationsOf(['operatorConsole']);

// Issue 30: the dashboard is for finance and support; jobs (reconciliation, requery, exports) move or reveal money: finance.
const DASHBOARD_ROLES = ['finance', 'support'] as const;
const FINANCE = ['finance'] as const;
const isAdmin = (user: AuthUser) => mayRun(user.operatorRoles, []);
/** The reader of a job: its download link is made for their session (jobs.ts). */
const viewerOf = (user: AuthUser) => ({ isAdmin: isAdmin(user), userId: user.id, sessionId: user.sessionId });

const range = z.object({
  from: lagosDay.optional().meta({ description: 'first Lagos day included (YYYY-MM-DD); default today' }),
  to: lagosDay.optional().meta({ description: 'last Lagos day included (YYYY-MM-DD); default `from`' }),
});
const group = { count: z.number(), volume: naira };
const nullableSeconds = z.number().nullable();

const jobView = z.object({
  id: z.string(),
  kind: z.enum(['reconciliation', 'bulk_requery', 'export']),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  input: z.record(z.string(), z.unknown()),
  progress: z.object({ done: z.number(), total: z.number() }),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
  downloadUrl: z.string().optional().meta({ description: 'exports when done: a signed link valid 5 minutes (a fresh one on each read)' }),
  downloadExpiresAt: z.string().optional(),
  createdBy: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
const jobId = z.object({ jobId: z.string().max(40) });
/** The started job is the target of the call's audit row. */
const audited = (ctx: { audit: { target(type: string, id: string): void } }, started: { jobId: string }) => {
  ctx.audit.target('operator_job', started.jobId);
  return started;
};

export const consoleOperations = [
  defineOperation({
    name: 'adminSearchTransactions',
    suffix: 'BearerAdmin',
    method: 'GET',
    roles: DASHBOARD_ROLES,
    purpose:
      'search VTU purchases by reference, phone, user or e-mail, status, service, channel (app, ussd, whatsapp) and a range of Lagos days (at most 92; without a reference, phone, user or e-mail the last 30 days), sorted newest, oldest or by amount',
    input: searchTransactionsInput,
    output: searchTransactionsOutput,
    handler: async (i, ctx) => {
      const out = await ctx.api.operatorConsole.transactions.search(i);
      if (i.userId) ctx.audit.target('user', i.userId);
      if (out.items.length === 1) ctx.audit.target('vtu_transaction', out.items[0]!.id);
      return out;
    },
  }),
  defineOperation({
    name: 'adminDashboardVolume',
    suffix: 'BearerAdmin',
    method: 'GET',
    roles: DASHBOARD_ROLES,
    purpose: 'dashboard: VTU purchases of a range of Lagos days (default today), count and volume by service, provider, status and channel',
    input: range,
    output: z.object({
      from: z.string(),
      to: z.string(),
      total: z.object(group),
      byService: z.array(z.object({ service: z.string(), ...group })),
      byProvider: z.array(z.object({ provider: z.string(), ...group })),
      byStatus: z.array(z.object({ status: z.string(), ...group })),
      byChannel: z.array(z.object({ channel: z.string(), ...group })),
    }),
    handler: async (input, ctx) => ctx.api.operatorConsole.dashboard.volume(input),
  }),
  defineOperation({
    name: 'adminDashboardProviders',
    suffix: 'BearerAdmin',
    method: 'GET',
    roles: DASHBOARD_ROLES,
    purpose: 'dashboard: per VTU provider over a range of Lagos days, success rate and latency (p50, p95) from purchase to final status',
    input: range,
    output: z.object({
      from: z.string(),
      to: z.string(),
      items: z.array(
        z.object({
          provider: z.string(),
          succeeded: z.number(),
          failed: z.number(),
          processing: z.number(),
          successRate: z.number().nullable().meta({ description: 'succeeded / (succeeded + failed); null without a final one' }),
          latencySeconds: z.object({ p50: nullableSeconds, p95: nullableSeconds }),
        }),
      ),
    }),
    handler: async (input, ctx) => ctx.api.operatorConsole.dashboard.providers(input),
  }),
  defineOperation({
    name: 'adminDashboardFloats',
    suffix: 'BearerAdmin',
    method: 'GET',
    roles: DASHBOARD_ROLES,
    purpose:
      'dashboard: provider float balances on our books, burn per day over the last 7 days and days of headroom, and the collections pool',
    input: z.object({}),
    output: z.object({
      burnDays: z.number(),
      items: z.array(z.object({ provider: z.string(), balance: naira, burnPerDay: naira, daysOfHeadroom: z.number().nullable() })),
      collections: z.object({ balance: naira, daysOfHeadroom: z.number().nullable() }),
    }),
    handler: async (_input, ctx) => ctx.api.operatorConsole.dashboard.floats(),
  }),
  defineOperation({
    name: 'adminDashboardQueues',
    suffix: 'BearerAdmin',
    method: 'GET',
    roles: DASHBOARD_ROLES,
    purpose:
      'dashboard: stuck purchases, webhook credit lag, job lag, dead letters, the KYC review queue, pending approvals, open support threads, open transaction reports, top-ups pending past 5 minutes or paid a different amount (last 7 days), withdrawals pending with the processor past WITHDRAWAL_STUCK_AFTER_MINUTES, provider floats below ALERT_FLOAT_BELOW and a collections pool below ALERT_POOL_BELOW, now',
    input: z.object({}),
    output: z.object({
      stuckPurchases: z.object({ count: z.number(), oldestAgeSeconds: nullableSeconds, stuckAfterSeconds: z.number() }),
      webhooks: z.object({
        creditedLastHour: z.number(),
        lagSeconds: z.object({ max: nullableSeconds, avg: nullableSeconds }),
        waiting: z.number(),
        oldestWaitingSeconds: nullableSeconds,
      }),
      jobs: z.object({
        due: z.number(),
        lagSeconds: nullableSeconds,
        byQueue: z.array(z.object({ queue: z.string(), due: z.number(), lagSeconds: nullableSeconds })),
      }),
      deadLetters: z.object({
        total: z.number(),
        oldestAgeSeconds: nullableSeconds.meta({ description: 'since the oldest dead letter died (its last failed attempt)' }),
        byQueue: z.array(z.object({ queue: z.string(), count: z.number(), oldestAgeSeconds: nullableSeconds })),
      }),
      kyc: z.object({
        pending: z.number(),
        oldestAgeSeconds: nullableSeconds,
        byTier: z.array(z.object({ tier: z.number(), pending: z.number(), oldestAgeSeconds: nullableSeconds })),
      }),
      approvals: z.object({ pending: z.number(), oldestAgeSeconds: nullableSeconds }),
      support: z.object({ open: z.number(), awaitingReply: z.number(), oldestAwaitingSeconds: nullableSeconds }),
      reports: z.object({ open: z.number(), oldestAgeSeconds: nullableSeconds }),
      topups: z.object({
        pending: z.number(),
        oldestPendingSeconds: nullableSeconds,
        pendingAfterSeconds: z.number(),
        underpaid: z.number(),
        overpaid: z.number(),
      }),
      withdrawals: z.object({ stuck: z.number(), oldestStuckSeconds: nullableSeconds, stuckAfterSeconds: z.number() }),
      floats: z.object({
        low: z.array(z.string()).meta({ description: 'providers whose float is below ALERT_FLOAT_BELOW (or at or below ₦0)' }),
        floatBelow: naira.meta({ description: 'ALERT_FLOAT_BELOW' }),
        poolLow: z.boolean().meta({ description: 'the collections pool is below ALERT_POOL_BELOW' }),
        poolBelow: naira.meta({ description: 'ALERT_POOL_BELOW' }),
        lowForSeconds: nullableSeconds.meta({
          description:
            "how long the oldest low float or low pool has been low at least: since the alerts' check (every ALERT_EVERY_MS) first found it; null before it has",
        }),
      }),
    }),
    handler: async (_input, ctx) => ctx.api.operatorConsole.dashboard.queues(),
  }),
  defineOperation({
    name: 'adminStartReconciliation',
    suffix: 'BearerAdmin',
    method: 'POST',
    stepUpExempt: 'starts a job that settles only what the processor itself reports as paid',
    roles: FINANCE,
    purpose:
      'start top-up reconciliation as a job (up to 10,000 open intents, with progress); answers the job id, or the open one if one is running',
    input: z.object({}),
    output: jobId,
    handler: async (_input, ctx) => audited(ctx, await ctx.api.operatorConsole.jobs.startReconciliation(ctx.user.id)),
  }),
  defineOperation({
    name: 'adminVerifyTopup',
    suffix: 'BearerAdmin',
    method: 'POST',
    upstream: true,
    stepUpExempt: 'settles only what the processor itself reports as paid, once; the operator chooses no amount',
    roles: DASHBOARD_ROLES,
    rateLimit: 'money',
    purpose:
      "ask the processor about one top-up now (a lost webhook): a paid one is credited once, as its webhook would have; a failed or abandoned one is closed; the customer's own verify, for an operator",
    input: z.object({ reference: z.string().trim().min(1, 'reference is required').max(100) }),
    output: z.object({
      reference: z.string(),
      status: z.string(),
      amount: naira,
      amountPaid: naira.nullable(),
      settledAt: z.string().nullable(),
      credited: z.boolean().meta({ description: 'this call credited the wallet (false when it was credited before, or is not paid)' }),
    }),
    errors: ['NOT_FOUND', 'UPSTREAM_ERROR'],
    handler: async (input, ctx) => {
      const r = await ctx.api.operatorConsole.verifyTopup(input.reference);
      ctx.audit.target('user', r.userId);
      return {
        reference: r.reference,
        status: r.status,
        amount: r.amount,
        amountPaid: r.amountPaid,
        settledAt: r.settledAt,
        credited: r.credited,
      };
    },
  }),
  defineOperation({
    name: 'adminStartBulkRequery',
    suffix: 'BearerAdmin',
    method: 'POST',
    stepUpExempt: "starts a job that applies the providers' own answers; the operator chooses no outcome",
    roles: FINANCE,
    purpose: `requery purchases at their providers as a job: the given ids, or every stuck purchase (oldest ${BULK_REQUERY_MAX} at most)`,
    input: z.object({
      ids: z
        .array(z.string().uuid('each id must be a VTU transaction id (UUID)'))
        .min(1, 'give at least one id, or none for every stuck one')
        .max(500)
        .optional(),
    }),
    output: jobId,
    handler: async (input, ctx) => audited(ctx, await ctx.api.operatorConsole.jobs.startBulkRequery(ctx.user.id, input.ids)),
  }),
  defineOperation({
    name: 'adminStartExport',
    suffix: 'BearerAdmin',
    method: 'POST',
    stepUpExempt: "builds a file of rows the finance role can already list; the download needs the maker's role",
    roles: FINANCE,
    purpose:
      'export VTU transactions, ledger entries, top-ups or (admins only) the audit log of a range of Lagos days (both included, at most 366) as CSV, as a job',
    input: z.object({ kind: z.enum(EXPORT_KINDS), from: lagosDay, to: lagosDay }),
    output: jobId,
    handler: async (input, ctx) => audited(ctx, await ctx.api.operatorConsole.jobs.startExport(ctx.user.id, isAdmin(ctx.user), input)),
  }),
  defineOperation({
    name: 'adminGetJob',
    suffix: 'BearerAdmin',
    method: 'GET',
    roles: FINANCE,
    purpose: "an operator job's status, progress {done, total}, result or error, and an export's download link once done",
    input: jobId,
    output: jobView,
    handler: async (input, ctx) => {
      ctx.audit.target('operator_job', input.jobId);
      return ctx.api.operatorConsole.jobs.getJob(input.jobId, viewerOf(ctx.user));
    },
  }),
  defineOperation({
    name: 'adminListJobs',
    suffix: 'BearerAdmin',
    method: 'GET',
    roles: FINANCE,
    purpose: 'operator jobs, newest first, every operator’s (filter by kind and status)',
    input: z.object({
      kind: z.enum(['reconciliation', 'bulk_requery', 'export']).optional(),
      status: z.enum(['queued', 'running', 'done', 'failed']).optional(),
      ...pageInput,
    }),
    output: pageOutput(jobView),
    handler: async (input, ctx) => ctx.api.operatorConsole.jobs.listJobs(input, viewerOf(ctx.user)),
  }),
  ...channelOperations,
];
