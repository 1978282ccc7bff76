import { z } from 'zod';
import { DAY, HOUR } from '../../kernel/clock.js';
import type { Services } from '../../platform/services.js';
import { JOB_CREATE_DVA, JOB_PROCESS_EVENT, JOB_RECONCILE } from './service.js';
import { JOB_WITHDRAWAL_POLL, JOB_WITHDRAWAL_SEND, WITHDRAWAL_SEND_ATTEMPTS } from './withdrawal-model.js';

const PROCESS_EVENT_ATTEMPTS = 8;

/** Payments jobs: webhook processing, dedicated accounts after Tier 2, and the daily reconciliation. */
export function registerPaymentsJobs(services: Pick<Services, 'jobs' | 'payments' | 'config'>) {
  const { jobs, payments, config } = services;
  jobs.register({
    name: JOB_PROCESS_EVENT,
    payload: z.object({ eventId: z.string().uuid() }),
    maxAttempts: PROCESS_EVENT_ATTEMPTS,
    // A credit the user is waiting for goes ahead of notifications and other background work.
    priority: 10,
    handler: async (p, meta) => payments.processEvent(p.eventId, meta.attempt >= PROCESS_EVENT_ATTEMPTS),
    // Credited in batches by a lane of its own (credit-batch.ts), woken by the webhook's nudge: one commit per batch
    // instead of one per credit. One lane per worker: two lanes' batches share wallets, and a posting inside a
    // transaction whose wallet changed under it fails its whole batch (run again one by one), which under load cost
    // more than the second lane gained.
    batch: {
      size: config.webhookCreditBatch,
      lanes: 1,
      handler: (items) =>
        payments.processEvents(items.map((it) => ({ eventId: it.payload.eventId, isLastAttempt: it.attempt >= it.maxAttempts }))),
    },
  });
  jobs.register({
    name: JOB_CREATE_DVA,
    payload: z.object({ userId: z.string().uuid() }),
    maxAttempts: 10,
    backoffMs: 30_000,
    handler: async (p) => {
      await payments.ensureDedicatedAccount(p.userId);
    },
  });
  jobs.register({
    name: JOB_RECONCILE,
    payload: z.object({}),
    maxAttempts: 3,
    handler: async () => {
      await payments.reconcile();
    },
  });
  // Issue 43: a withdrawal's transfer is started, and a pending one asked after, by these (withdrawal-jobs.ts).
  jobs.register({
    name: JOB_WITHDRAWAL_SEND,
    payload: z.object({ id: z.string().uuid() }),
    maxAttempts: WITHDRAWAL_SEND_ATTEMPTS,
    backoffMs: 10_000,
    handler: async (p, meta) => payments.sendWithdrawal(p.id, meta.attempt >= WITHDRAWAL_SEND_ATTEMPTS),
  });
  jobs.register({
    name: JOB_WITHDRAWAL_POLL,
    payload: z.object({ id: z.string().uuid(), polls: z.number().int().optional() }),
    maxAttempts: 10,
    backoffMs: 30_000,
    handler: async (p) => payments.pollWithdrawal(p.id, p.polls),
  });
  // Daily at 00:00 Africa/Lagos (UTC+1): slots start at 23:00 UTC; the slot key makes it once per day across instances.
  jobs.schedule({ job: JOB_RECONCILE, everyMs: DAY, offsetMs: 23 * HOUR });
}
