import type { Config } from '../../../../config.js';
import type { Executor } from '../../../../db/client.js';
import type { Clock } from '../../../../kernel/clock.js';
import { AppError } from '../../../../kernel/errors.js';
import { formatNaira } from '../../../../kernel/money.js';
import type { Network } from '../../../../kernel/phone.js';
import * as repo from './repository.js';

/** Today's rate of a network, in basis points. */
export const rateBp = (cfg: Config['airtimeCash'], n: Network) => Math.round(cfg.ratePercent[n] * 100);

/** Refuses an amount with kobo or outside one request's bounds. */
export function assertAmount(cfg: Config['airtimeCash'], amount: bigint) {
  if (amount % 100n !== 0n) throw new AppError('AMOUNT_OUT_OF_RANGE', 'Airtime is sent in whole naira; leave out the kobo');
  if (amount < cfg.min || amount > cfg.max)
    throw new AppError('AMOUNT_OUT_OF_RANGE', `Airtime-to-cash takes ${formatNaira(cfg.min)} to ${formatNaira(cfg.max)} at a time`);
}

/** Refuses a request that would pass today's cap of the customer or of the sending number (docs/decisions.md). */
export async function assertCaps(
  { cfg, clock }: { cfg: Config['airtimeCash']; clock: Clock },
  exec: Executor,
  userId: string,
  sender: string,
  amount: bigint,
) {
  const used = await repo.usedToday(exec, userId, sender, clock.now());
  if (used.customer + amount > cfg.customerDailyCap)
    throw new AppError(
      'LIMIT_EXCEEDED',
      `Airtime-to-cash is limited to ${formatNaira(cfg.customerDailyCap)} a day per customer; ${formatNaira(cfg.customerDailyCap - used.customer < 0n ? 0n : cfg.customerDailyCap - used.customer)} is left today`,
    );
  if (used.number + amount > cfg.numberDailyCap)
    throw new AppError(
      'LIMIT_EXCEEDED',
      `Airtime-to-cash is limited to ${formatNaira(cfg.numberDailyCap)} a day from one sending number; ${formatNaira(cfg.numberDailyCap - used.number < 0n ? 0n : cfg.numberDailyCap - used.number)} is left today for ${sender}`,
    );
}
