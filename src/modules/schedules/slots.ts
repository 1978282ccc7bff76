import { DAY, HOUR } from '../../kernel/clock.js';

/**
 * Slot arithmetic in Africa/Lagos (UTC+1 all year, no daylight saving). A slot is the instant a schedule is
 * due; its ISO string is part of the job's singleton key and of the schedule_runs unique key.
 */
export type Frequency = 'daily' | 'weekly' | 'monthly';

export interface Recurrence {
  frequency: Frequency;
  /** "HH:MM", 24-hour, Lagos time. */
  time: string;
  /** 0 = Sunday ... 6 = Saturday (weekly). */
  dayOfWeek?: number | null;
  /** 1-31 (monthly); months with fewer days run on their last day. */
  dayOfMonth?: number | null;
}

const LAGOS_OFFSET = HOUR;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** The first slot strictly after `after`. */
export function nextSlot(r: Recurrence, after: Date): Date {
  const [hh, mm] = r.time.split(':').map(Number);
  const t = after.getTime();
  // Wall-clock fields of `after` in Lagos.
  const local = new Date(t + LAGOS_OFFSET);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth();
  const d = local.getUTCDate();
  const at = (year: number, month: number, day: number) => Date.UTC(year, month, day, hh, mm) - LAGOS_OFFSET;

  if (r.frequency === 'daily') {
    const c = at(y, m, d);
    return new Date(c > t ? c : c + DAY);
  }
  if (r.frequency === 'weekly') {
    const dow = local.getUTCDay();
    const ahead = ((r.dayOfWeek ?? 0) - dow + 7) % 7;
    const c = at(y, m, d) + ahead * DAY;
    return new Date(c > t ? c : c + 7 * DAY);
  }
  for (let k = 0; k < 3; k++) {
    const year = y + Math.floor((m + k) / 12);
    const month = (m + k) % 12;
    const c = at(year, month, Math.min(r.dayOfMonth ?? 1, daysInMonth(year, month)));
    if (c > t) return new Date(c);
  }
  throw new Error('unreachable: a monthly slot always exists within three months');
}
