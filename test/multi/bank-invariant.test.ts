import { describe, expect, it } from 'vitest';
import { runBankInvariant } from '../../bench/bank-invariant.js';
import { usingPostgres } from '../helpers/harness.js';
import { SKIP_REASON } from './helpers.js';

/**
 * The short variant of `npm run bank:invariant` (bench/bank-invariant.ts): 10 s of mixed top-ups, purchases,
 * transfers and debits over loopback HTTP against two server processes on one fresh PostgreSQL database, then
 * money in = money out + balances to the kobo, and ledger:verify; money requests retried under their Idempotency-Key
 * on the other instance move money once.
 */
describe.skipIf(!usingPostgres)(`bank invariant under load (${usingPostgres ? 'PostgreSQL' : `skipped: ${SKIP_REASON}`})`, () => {
  it('settled top-ups equal delivered purchases + debits + user balances, to the kobo, after 10 s of mixed load on two instances; a retried Idempotency-Key moves money once', async () => {
    const lines: string[] = [];
    const report = await runBankInvariant({
      baseDatabaseUrl: process.env.TEST_DATABASE_URL!,
      redisUrl: process.env.TEST_REDIS_URL,
      seconds: Number(process.env.BANK_INVARIANT_SECONDS ?? 10),
      workers: 6,
      users: 16,
      instances: 2,
      // Under PostgreSQL's 100 connections next to another test file (test/multi/helpers.ts, CHILD_ENV).
      poolSize: 10,
      log: (l) => lines.push(l),
    });
    console.log(lines.join('\n'));
    expect(report.problems).toEqual([]);
    expect(report.figures.difference).toBe(0n);
    expect(report.figures.moneyIn).toBeGreaterThan(0n);
    expect(report.figures.moneyIn).toBe(report.figures.purchasesDelivered + report.figures.debits + report.figures.userBalances);
    // Refused operations are expected (a wallet runs dry) but never a 5xx.
    const serverErrors = Object.values(report.operations).flatMap((o) =>
      Object.keys(o).filter((k) => k.startsWith('5') || k.startsWith('0')),
    );
    expect(serverErrors).toEqual([]);
  }, 150_000);
});
