import type { Result } from './lib.js';

/** One goal of issue 31 as `npm run bench` ends with it: what was measured against which baseline of the same run. */
export interface Goal {
  goal: string;
  measured: string;
  baseline: string;
  ratio: string;
  /** null: not measured in this run (BENCH_ONLY left its stage out, or the stage failed). */
  met: boolean | null;
}

export const rate = (r: Result) => `${r.rps.toLocaleString('en')}/s, p99 ${r.p99} ms${r.errors ? `, ${r.errors} errors` : ''}`;
export const percent = (a: number, b: number) => `${Math.round((a / b) * 100)}%`;
export const times = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

/** "rate >= share of the baseline's rate" (and no errors). */
export function rateGoal(goal: string, measured: Result, baseline: Result, share: number): Goal {
  return {
    goal,
    measured: rate(measured),
    baseline: `${baseline.name}: ${rate(baseline)}`,
    ratio: percent(measured.rps, baseline.rps),
    met: measured.rps >= share * baseline.rps && measured.errors === 0,
  };
}

/** "p99 <= factor x the baseline's p99". */
export function p99Goal(goal: string, measured: Result, baseline: Result, factor: number): Goal {
  return {
    goal,
    measured: `p99 ${measured.p99} ms`,
    baseline: `${baseline.name}: p99 ${baseline.p99} ms`,
    ratio: times(measured.p99, baseline.p99),
    met: measured.p99 <= factor * baseline.p99,
  };
}

export function goalTable(goals: Goal[]): string {
  const cell = (s: string) => s.replace(/\|/g, '/');
  return [
    '| goal | measured | baseline (same run) | ratio | met? |',
    '|---|---|---|---|---|',
    ...goals.map(
      (g) =>
        `| ${cell(g.goal)} | ${cell(g.measured)} | ${cell(g.baseline)} | ${g.ratio} | ${g.met === null ? 'not run' : g.met ? 'yes' : 'NO'} |`,
    ),
  ].join('\n');
}
