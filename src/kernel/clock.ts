/** Time source injected wherever time matters (docs/style.md rule 7), so tests move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export class TestClock implements Clock {
  private t: number;
  constructor(start: Date | string = '2026-01-15T09:00:00Z') {
    this.t = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(d: Date | string): void {
    this.t = new Date(d).getTime();
  }
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Calendar date (YYYY-MM-DD) in Africa/Lagos (UTC+1, no DST). */
export function lagosDate(d: Date): string {
  return new Date(d.getTime() + HOUR).toISOString().slice(0, 10);
}
