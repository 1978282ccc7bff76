import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/**
 * CPU time a benchmark run costs on this machine, per process group ("measure every money path against
 * the machine's limits"). Rates on a shared VM move by ±20 % from run to run, baselines included; the CPU a
 * request takes moves less (still with the VM's speed: read it against the same run's baselines), and it says what
 * the machine can do at most: with the load generator elsewhere,
 * `cores × 1000 / (server + PostgreSQL ms per request)` requests per second.
 *
 * Read from Linux's /proc: the server process (all its threads), every `postgres` process (backends that ended
 * during the run are counted through the postmaster's reaped-children times) and this bench process (the load
 * generator, or the pg loop of the in-process baselines). Elsewhere, or with PostgreSQL on another machine, the
 * figures are null. Assumes nothing else busy runs on the machine during the bench.
 */
/** CPU milliseconds of each side: totals so far in a snapshot, per request in a run's cost. */
export interface CpuFigures {
  server: number | null;
  postgres: number | null;
  bench: number;
}
export type CpuSnapshot = CpuFigures;
export type CpuCost = CpuFigures;

let tick: number | null = null;
function msPerTick(): number {
  if (tick === null) {
    let hz = 100;
    try {
      hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      /* the usual Linux value */
    }
    tick = 1000 / hz;
  }
  return tick;
}

/** utime + stime (+ reaped children's, when asked) of a process, in ms; null when it cannot be read. */
function processCpuMs(pid: string | number, withChildren: boolean): { comm: string; ms: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14-17 of proc(5): utime, stime, cutime, cstime; f[0] is field 3.
    const own = Number(f[11]) + Number(f[12]);
    const children = withChildren ? Number(f[13]) + Number(f[14]) : 0;
    return { comm, ms: (own + children) * msPerTick() };
  } catch {
    return null;
  }
}

function postgresCpuMs(): number | null {
  if (!fs.existsSync('/proc/self/stat')) return null;
  let total = 0;
  let found = false;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const p = processCpuMs(pid, true);
    if (p?.comm === 'postgres') {
      found = true;
      total += p.ms;
    }
  }
  return found ? total : null;
}

export function cpuSnapshot(serverPid?: number): CpuSnapshot {
  const u = process.cpuUsage();
  return {
    server: serverPid === undefined ? null : (processCpuMs(serverPid, false)?.ms ?? null),
    postgres: postgresCpuMs(),
    bench: (u.user + u.system) / 1000,
  };
}

export function cpuCost(before: CpuSnapshot, after: CpuSnapshot, requests: number): CpuCost | undefined {
  if (!requests) return undefined;
  const per = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.round(((b - a) / requests) * 1000) / 1000);
  return {
    server: per(before.server, after.server),
    postgres: per(before.postgres, after.postgres),
    bench: Math.round(((after.bench - before.bench) / requests) * 1000) / 1000,
  };
}

export const CORES = os.cpus().length;

/**
 * The most requests per second this machine could serve on this path if it did nothing else (the load generator
 * elsewhere): its cores divided by the server's and PostgreSQL's CPU per request. `serverIsBench`: the baselines
 * that run in the bench process itself.
 */
export function ceiling(cost: CpuCost | undefined, serverIsBench = false): number | null {
  if (!cost) return null;
  const server = serverIsBench ? cost.bench : cost.server;
  if (server === null) return null;
  const ms = server + (cost.postgres ?? 0);
  return ms > 0 ? Math.round((CORES * 1000) / ms) : null;
}
