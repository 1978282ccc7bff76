import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { Work } from '../../platform/change.js';
import type { Clock } from '../../kernel/clock.js';
import { prefixedId } from '../../kernel/ids.js';
import type { Logger } from '../../lib/logger.js';
import { apartFromRequests } from '../../db/request-scope.js';
import { toNaira } from '../../kernel/money.js';
import { PROVIDER_IDS, ProviderError, type ProviderId, type VtuProvider } from '../../providers/vtu/types.js';
import { floatAccount } from './model.js';

/**
 * Provider floats (spec rule 3): funded just in time from the collections pool when a provider's own balance
 * confirms a shortfall, or by an operator; a per-process estimate avoids asking the provider on every purchase.
 */
export function createProviderFloat(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  work: Work;
  cfg: Config['vtu'];
  /** Every kind's providers in order (pricing.ts: VTU_ROUTING over the kinds' defaults). */
  routing: Record<string, ProviderId[]>;
  providers: Record<ProviderId, VtuProvider>;
}) {
  const { db, clock, log, ledger, work, cfg, routing, providers } = deps;
  const floatEstimate = new Map<ProviderId, bigint>();
  const refilling = new Map<ProviderId, Promise<void>>();

  async function fundProvider(provider: ProviderId, amount: bigint, actorId: string | null, why: string): Promise<bigint> {
    const reference = prefixedId('vtf', clock.now().getTime());
    // Provider first, ledger second: a failed funding call moves nothing on our books.
    const balance = await providers[provider].fund(amount, reference);
    await work
      .change()
      .post(
        {
          reference,
          type: 'vtu_float_funding',
          description: `${why}: provider ${provider.toUpperCase()} float funded from the collections pool`,
          entries: [
            { account: floatAccount(provider), amount: -amount },
            { account: { system: 'collections' }, amount },
          ],
          metadata: { provider, actorId },
        },
        { ifPosted: 'skip' },
      )
      .commit();
    floatEstimate.set(provider, balance);
    log.info({ provider, amount: amount.toString(), reference }, 'provider float funded');
    return balance;
  }

  /** Keeps a per-process estimate; asks the provider only when the estimate is short (or after a low-float refusal). */
  async function ensureFloat(provider: ProviderId, need: bigint, force = false) {
    const est = floatEstimate.get(provider);
    if (!force && est !== undefined && est >= need) {
      floatEstimate.set(provider, est - need);
      return;
    }
    let r = refilling.get(provider);
    if (!r) {
      // The platform's money, shared by every purchase waiting on it: no request's work, so its posting marks no
      // request's Idempotency-Key claim (each purchase's own debit marked its claim before its attempt asks for float).
      r = apartFromRequests(async () => {
        const bal = await providers[provider].balance();
        floatEstimate.set(provider, bal);
        // Funded only when the provider's own balance confirms the shortfall, so a provider that refuses for
        // another reason cannot pull the collections pool dry one purchase at a time.
        if (bal < need) {
          const topup = cfg.floatTopup > need * 2n ? cfg.floatTopup : need * 2n;
          await fundProvider(provider, topup, null, 'Just-in-time top-up');
        }
      }).finally(() => refilling.delete(provider));
      refilling.set(provider, r);
    }
    await r;
    floatEstimate.set(provider, (floatEstimate.get(provider) ?? 0n) - need);
  }

  return {
    ensureFloat,
    async listFloats() {
      return Promise.all(
        PROVIDER_IDS.map(async (p) => {
          const ledgerFloat = -(await ledger.balance(db, floatAccount(p)));
          let providerBalance: number | null = null;
          try {
            providerBalance = toNaira(await providers[p].balance());
          } catch (err) {
            log.warn({ provider: p, err: (err as Error).message }, 'provider balance unavailable');
          }
          return {
            provider: p,
            services: Object.entries(routing)
              .filter(([, list]) => list.includes(p))
              .map(([s]) => s),
            ledgerFloat: toNaira(ledgerFloat),
            providerBalance,
          };
        }),
      );
    },
    async fundFloat(actorId: string, provider: ProviderId, amount: bigint) {
      try {
        const balance = await fundProvider(provider, amount, actorId, 'Operator funding');
        return { provider, amount: toNaira(amount), providerBalance: toNaira(balance) };
      } catch (err) {
        if (err instanceof ProviderError)
          throw new AppError('UPSTREAM_ERROR', `Provider ${provider.toUpperCase()} did not accept the funding: ${err.message}`, {
            cause: err,
          });
        throw err;
      }
    },
  };
}
