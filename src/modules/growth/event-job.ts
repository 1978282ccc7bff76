import { z } from 'zod';
import type { Db, Executor } from '../../db/client.js';
import type { Logger } from '../../lib/logger.js';
import type { Work } from '../../platform/change.js';
import type { EventName } from '../../platform/events.js';
import type { LoanService } from '../loans/api.js';
import { asTx } from './accounts.js';
import type { GrowthService, PurchaseEvent } from './service.js';

/**
 * The job that does growth's and loans' share of an event (a delivered purchase, a credit, a closed account). The
 * queue keeps the name it had when it only retried failed subscribers, so jobs queued before still run.
 */
export const GROWTH_EVENT_JOB = 'growth.eventRetry';
/** Events one claim of the growth lane works through. */
export const GROWTH_EVENT_BATCH = 50;
const BIGINT_FIELDS = ['amount'] as const;

type Item = { event: string; payload: Record<string, unknown> };

/** An event as the job's payload carries it (JSON: bigints as strings). */
export const payloadOf = (e: object) =>
  Object.fromEntries(Object.entries(e).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]));

const eventOf = (payload: Record<string, unknown>) => {
  const e: Record<string, unknown> = { ...payload };
  for (const f of BIGINT_FIELDS) if (typeof e[f] === 'string') e[f] = BigInt(e[f] as string);
  return e;
};

/**
 * The growth job's definition: each event in its own transaction; a claim of the growth lane records its delivered
 * purchases together in one statement (recordPurchases) and does the rest of the bookkeeping only for the buyers who
 * have some, each in its own transaction; credits and closures one by one. Each job keeps its own outcome.
 */
export function growthEventJob(deps: { growth: GrowthService; loans: LoanService; work: Work; db: Db; log: Logger }) {
  const { growth, loans, db } = deps;
  const byEvent: { [E in EventName]?: (exec: Executor, e: any) => Promise<void> } = {
    // Only a retry queued before sign-ups recorded the referral in their own statement has this event.
    'user.created': async (tx, e) => {
      const change = deps.work.change(asTx(tx));
      growth.recordReferral(change, e);
      await change.commit();
    },
    'vtu.succeeded': (tx, e) => growth.onVtuSucceeded(tx, e),
    'wallet.credited': (tx, e) => loans.onWalletCredited(tx, e),
    'account.closed': (tx, e) => growth.onAccountClosed(tx, e),
  };
  const run = async ({ event, payload }: Item) => {
    const fn = byEvent[event as EventName];
    if (!fn) throw new Error(`no growth work for ${event}`);
    await db.transaction((tx) => fn(tx, eventOf(payload)));
  };
  const failed = (event: string, err: unknown) => {
    deps.log.error({ err, event }, 'growth work failed; its job is retried');
    return err;
  };
  const runPurchases = async (purchases: { i: number; e: PurchaseEvent }[], answers: unknown[]) => {
    if (!purchases.length) return;
    try {
      const due = new Set((await growth.recordPurchases(purchases.map((p) => p.e))).map((e) => e.transactionId));
      for (const p of purchases) {
        if (!due.has(p.e.transactionId)) continue;
        try {
          await db.transaction((tx) => growth.onVtuSucceeded(tx, p.e, { recorded: true }));
        } catch (err) {
          answers[p.i] = failed('vtu.succeeded', err);
        }
      }
    } catch (err) {
      for (const p of purchases) answers[p.i] = failed('vtu.succeeded', err);
    }
  };
  const runBatch = async (items: { payload: Item }[]): Promise<unknown[]> => {
    const answers: unknown[] = items.map(() => null);
    const purchases = items.flatMap((it, i) =>
      it.payload.event === 'vtu.succeeded' ? [{ i, e: eventOf(it.payload.payload) as unknown as PurchaseEvent }] : [],
    );
    await runPurchases(purchases, answers);
    for (const [i, it] of items.entries()) {
      if (it.payload.event === 'vtu.succeeded') continue;
      try {
        await run(it.payload);
      } catch (err) {
        answers[i] = failed(it.payload.event, err);
      }
    }
    return answers;
  };
  return {
    name: GROWTH_EVENT_JOB,
    payload: z.object({
      event: z.enum(['user.created', 'vtu.succeeded', 'wallet.credited', 'account.closed']),
      payload: z.record(z.string(), z.unknown()),
    }),
    maxAttempts: 8,
    backoffMs: 30_000,
    handler: run,
    batch: { size: GROWTH_EVENT_BATCH, handler: runBatch },
  };
}
