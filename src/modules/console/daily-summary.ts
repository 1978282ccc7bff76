import { z } from 'zod';
import type { Db } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import { DAY, HOUR, lagosDate, type Clock } from '../../kernel/clock.js';
import { formatNaira, toKobo } from '../../kernel/money.js';
import type { Outbox } from '../notifications/api.js';
import type { OperatorsService } from '../operators/api.js';
import { purchaseVolume } from '../vtu/api.js';
import { profitRows, profitSummary } from './profit.js';
import { lagosRange } from './range.js';
import { waitingWork } from './waiting.js';

/**
 * The daily summary e-mail to admins (issue 45): yesterday's (a Lagos day's) purchase volume, profit by service and
 * by price level (recharge cards' delivered batches among them, service `epin`), and the work people wait on now. Sent
 * at 06:00 Lagos, once per day and admin (the slot's key and each e-mail's dedupe key).
 */
export const DAILY_SUMMARY_JOB = 'console.daily-summary';

export interface DailySummaryDeps {
  db: Db;
  clock: Clock;
  outbox: Outbox;
  operators: Pick<OperatorsService, 'adminAddresses'>;
}

/** Naira as the e-mail writes it (₦1,234.50). */
const n = (naira: number) => formatNaira(toKobo(naira));
const line = (label: string, count: number, volume: bigint | number, profit?: number) =>
  `  ${label}: ${count} · ${typeof volume === 'bigint' ? formatNaira(volume) : n(volume)}${profit === undefined ? '' : ` · profit ${n(profit)}`}`;

/** The summary of Lagos day `day` as its e-mail's text. */
export async function summaryText(deps: Pick<DailySummaryDeps, 'db' | 'clock'>, day: string): Promise<string> {
  const now = deps.clock.now();
  const r = lagosRange({ from: day, to: day }, now, 1);
  const [volume, profits, waiting] = await Promise.all([
    purchaseVolume(deps.db, r.start, r.end),
    profitRows(deps.db, r.start, r.end),
    waitingWork(deps.db, now),
  ]);
  const all = volume.find((v) => v.g === 15);
  const p = profitSummary(profits);
  const w = waiting;
  return [
    `Summary of ${day} (Lagos)`,
    '',
    `Purchases: ${all?.n ?? 0}, volume ${formatNaira(BigInt(all?.volume ?? '0'))}`,
    ...volume.filter((v) => v.g === 7).map((v) => line(v.service ?? '', v.n, BigInt(v.volume))),
    '',
    `Profit (successful purchases and delivered recharge cards, retail minus wholesale): ${n(p.total.profit)} on ${p.total.count} purchases`,
    'By service:',
    ...(p.byService.length ? p.byService.map((s) => line(s.service, s.count, s.retail, s.profit)) : ['  none']),
    'By price level:',
    ...(p.byLevel.length ? p.byLevel.map((s) => line(s.levelName, s.count, s.retail, s.profit)) : ['  none']),
    '',
    'Waiting now:',
    `  Approvals pending: ${w.approvals.pending}`,
    `  Support threads open: ${w.support.open} (${w.support.awaitingReply} awaiting a reply)`,
    `  Transaction reports open: ${w.reports.open}`,
    `  Top-ups pending: ${w.topups.pending}; paid a different amount: ${w.topups.underpaid + w.topups.overpaid}`,
  ].join('\n');
}

/** Sends yesterday's summary to every admin, in one transaction (each e-mail once per day and address). */
export async function sendDailySummary(deps: DailySummaryDeps): Promise<number> {
  const day = lagosDate(new Date(deps.clock.now().getTime() - DAY));
  const [text, to] = await Promise.all([summaryText(deps, day), deps.operators.adminAddresses()]);
  await deps.db.transaction(async (tx) => {
    for (const address of to)
      await deps.outbox.sendEmail(
        tx,
        { to: address, subject: `Daily summary: ${day}`, text },
        { dedupeKey: `${DAILY_SUMMARY_JOB}:${day}:${address}` },
      );
  });
  return to.length;
}

/** 06:00 Lagos each day (05:00 UTC). */
export function registerDailySummary(services: DailySummaryDeps & { jobs: JobQueue }) {
  services.jobs.register({
    name: DAILY_SUMMARY_JOB,
    payload: z.object({}),
    maxAttempts: 5,
    backoffMs: 60_000,
    handler: async () => void (await sendDailySummary(services)),
  });
  services.jobs.schedule({ job: DAILY_SUMMARY_JOB, everyMs: DAY, offsetMs: 5 * HOUR });
}
