import { z } from 'zod';
import { AppError } from './errors.js';
import { DAY, HOUR, lagosDate } from './clock.js';

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

/** Issue 43: the customer's history and statements cover at most this many Lagos days. */
export const HISTORY_MAX_DAYS = 366;

/** The history's filter fields (GET query strings): a range of Lagos days and a search. */
export const historyFilterInput = {
  from: lagosDay.optional().meta({ description: 'first Lagos day included (YYYY-MM-DD)', examples: ['2026-01-01'] }),
  to: lagosDay
    .optional()
    .meta({ description: 'last Lagos day included (YYYY-MM-DD); from..to covers at most 366 days', examples: ['2026-01-31'] }),
  q: z
    .string()
    .trim()
    .max(60, 'Search at most 60 characters')
    .optional()
    .meta({ description: 'reference, recipient number or words of the service or product (any part, any case)' }),
};

/** The history's range: null without `from` and `to`, else lagosRange's (from <= to, at most 366 days, 400 otherwise). */
export function historyRange(input: { from?: string; to?: string }, now: Date): Range | null {
  return input.from || input.to ? lagosRange(input, now, HISTORY_MAX_DAYS) : null;
}

/** A search as an ILIKE pattern matching any part (its own % _ and \ taken literally); null for no search. */
export function containsPattern(q: string | undefined): string | null {
  const t = q?.trim();
  return t ? `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
}
