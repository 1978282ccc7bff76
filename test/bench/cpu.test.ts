import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORES, ceiling, cpuCost, cpuSnapshot } from '../../bench/cpu.js';

/** bench/cpu.ts: the CPU a benchmark run costs per request and the ceiling it gives. */
const linux = fs.existsSync('/proc/self/stat');

describe('benchmark CPU accounting', () => {
  it('divides each side of a run by its requests, and says unknown where it could not read', () => {
    const before = { server: 1_000, postgres: 5_000, bench: 200 };
    const after = { server: 3_000, postgres: 6_000, bench: 700 };
    expect(cpuCost(before, after, 1_000)).toEqual({ server: 2, postgres: 1, bench: 0.5 });
    expect(cpuCost({ ...before, postgres: null }, after, 1_000)).toEqual({ server: 2, postgres: null, bench: 0.5 });
    expect(cpuCost(before, after, 0)).toBeUndefined();
  });

  it('gives the ceiling as cores x 1000 / (server + PostgreSQL ms), the load generator left out', () => {
    expect(ceiling({ server: 2, postgres: 2, bench: 9 })).toBe(Math.round((CORES * 1000) / 4));
    // The in-process baselines: this process is the server.
    expect(ceiling({ server: null, postgres: 1, bench: 1 }, true)).toBe(Math.round((CORES * 1000) / 2));
    expect(ceiling({ server: null, postgres: 1, bench: 1 })).toBeNull();
    expect(ceiling({ server: 1, postgres: null, bench: 0 })).toBe(CORES * 1000);
    expect(ceiling(undefined)).toBeNull();
  });

  it.skipIf(!linux)('reads the CPU a child process spends, and none it does not', async () => {
    // A child that spins until it has used 300 ms of CPU (by its own CPU clock, so a busy machine only makes it
    // take longer), then waits to be read before it exits.
    const spin =
      "const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }; while (cpu() < 300); console.log('done'); setTimeout(() => {}, 10000)";
    const child = spawn(process.execPath, ['-e', spin], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const before = cpuSnapshot(child.pid);
      await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
      const after = cpuSnapshot(child.pid);
      const cost = cpuCost(before, after, 1)!;
      expect(cost.server).toBeGreaterThanOrEqual(200);
      expect(cost.server).toBeLessThan(5_000);
      // This test process mostly waited meanwhile.
      expect(cost.bench).toBeLessThan(cost.server!);
      expect(cpuSnapshot(2 ** 22 + 12345).server).toBeNull();
    } finally {
      child.kill('SIGKILL');
    }
  });
});
