import { AppError } from '../../kernel/errors.js';
import { toNaira } from '../../kernel/money.js';
import { PROVIDER_IDS, ProviderError, type ProviderId } from '../../providers/vtu/types.js';
import type { FloatDeps } from './float-deps.js';
import { fundProvider } from './float-funding.js';
import { floatAccount } from './model.js';

/** Each provider's float on our books and by its own word (null when it cannot be reached), with the kinds it sells. */
export async function listFloats({ db, log, ledger, routing, providers }: FloatDeps) {
  const named = await routing();
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
        services: Object.entries(named)
          .filter(([, list]) => list.includes(p))
          .map(([s]) => s),
        ledgerFloat: toNaira(ledgerFloat),
        providerBalance,
      };
    }),
  );
}

/** An operator funds a provider's float (UPSTREAM_ERROR when the provider refuses). */
export async function fundFloat(deps: FloatDeps, actorId: string, provider: ProviderId, amount: bigint) {
  try {
    const balance = await fundProvider(deps, provider, amount, actorId, 'Operator funding');
    return { provider, amount: toNaira(amount), providerBalance: toNaira(balance) };
  } catch (err) {
    if (err instanceof ProviderError)
      throw new AppError('UPSTREAM_ERROR', `Provider ${provider.toUpperCase()} did not accept the funding: ${err.message}`, {
        cause: err,
      });
    throw err;
  }
}
