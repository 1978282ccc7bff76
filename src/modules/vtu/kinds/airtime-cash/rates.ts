import { toKobo, toNaira } from '../../../../kernel/money.js';
import { NETWORKS, type Network } from '../../../../kernel/phone.js';
import { NETWORK_NAMES } from '../../model.js';
import type { AirtimeCashDeps } from './deps.js';
import { assertAmount, rateBp } from './limits.js';
import * as repo from './repository.js';
import { creditOf } from './settlement.js';
import { rateOf } from './view.js';

/** The networks bought, with today's rate and one request's bounds. */
export function networks({ config }: AirtimeCashDeps) {
  const cfg = config.airtimeCash;
  return NETWORKS.map((n) => ({
    id: n,
    name: NETWORK_NAMES[n],
    rate: cfg.ratePercent[n],
    minAmount: toNaira(cfg.min),
    maxAmount: toNaira(cfg.max),
  }));
}

/** What a request of `amount` would credit at today's rate, and what is left of the customer's daily cap. */
export async function quote({ config, db, clock }: AirtimeCashDeps, userId: string, input: { network: Network; amount: number }) {
  const cfg = config.airtimeCash;
  const amount = toKobo(input.amount);
  assertAmount(cfg, amount);
  const bp = rateOf(rateBp(cfg, input.network));
  const used = await repo.usedToday(db, userId, '', clock.now());
  const left = cfg.customerDailyCap - used.customer;
  return {
    network: input.network,
    amount: input.amount,
    rate: bp,
    credit: toNaira(creditOf(amount, rateBp(cfg, input.network))),
    remainingToday: toNaira(left < 0n ? 0n : left),
  };
}
