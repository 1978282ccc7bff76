/** How often the worker's event loop is sampled (JobQueue.start). */
export const LOOP_LAG_TICK_MS = 20;

/**
 * How late this process's event loop runs: a timer due every LOOP_LAG_TICK_MS notes how late it fired, and a reading
 * also counts a tick that is overdue now (the loop still busy). Everything a credit does (claim, post, commit) waits
 * its turn on this loop, so a late loop makes a late credit whatever the queue holds: the webhook's admission control
 * refuses meanwhile (payments/webhook-events.ts). Zero until started (tests drive drain() without a loop).
 */
export class LoopLag {
  private timer: NodeJS.Timeout | null = null;
  private last = 0;
  private late = 0;

  start(): void {
    if (this.timer) return;
    this.last = performance.now();
    this.timer = setInterval(() => {
      const now = performance.now();
      this.late = Math.max(0, now - this.last - LOOP_LAG_TICK_MS);
      this.last = now;
    }, LOOP_LAG_TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.late = 0;
  }

  /** Milliseconds the loop runs late: the last tick's delay, or the current tick's if it is overdue already. */
  ms(): number {
    if (!this.timer) return 0;
    return Math.max(this.late, performance.now() - this.last - LOOP_LAG_TICK_MS);
  }
}
