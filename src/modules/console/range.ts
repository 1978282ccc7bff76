import { z } from 'zod';
import { AppError } from '../../kernel/errors.js';
import { DAY, HOUR, lagosDate } from '../../kernel/clock.js';

/** A Lagos calendar day, `YYYY-MM-DD` (a real date: 2026-02-30 is refused). */
export const lagosDay = z
  .string({ error: 'Give a date as YYYY-MM-DD' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Give a date as YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), {
    message: 'Not a calendar date',
  });

export interface Range {
  /** First instant included (00:00 Lagos of `from`). */
  start: Date;
  /** First instant excluded (00:00 Lagos of the day after `to`). */
  end: Date;
  from: string;
  to: string;
}

/** Midnight in Lagos (UTC+1, no daylight saving) of a calendar day. */
const lagosMidnight = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - HOUR);

/**
 * The instants of a range of Lagos days, both days included (issue 30: "today (Africa/Lagos) or a chosen range").
 * `to` defaults to `from`, `from` to today; more than maxDays days is refused with the field named.
 */
export function lagosRange(input: { from?: string; to?: string }, now: Date, maxDays: number): Range {
  const from = input.from ?? input.to ?? lagosDate(now);
  const to = input.to ?? (input.from ? lagosDate(now) : from);
  const start = lagosMidnight(from);
  const end = new Date(lagosMidnight(to).getTime() + DAY);
  if (end <= start) throw new AppError('VALIDATION_FAILED', '`to` is before `from`', { issues: [{ path: 'to', message: 'before from' }] });
  const days = Math.round((end.getTime() - start.getTime()) / DAY);
  if (days > maxDays)
    throw new AppError('VALIDATION_FAILED', `A range covers at most ${maxDays} days (this one covers ${days})`, {
      issues: [{ path: 'to', message: `at most ${maxDays} days after from` }],
    });
  return { start, end, from, to };
}
