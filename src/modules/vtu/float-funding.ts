import { apartFromRequests } from '../../db/request-scope.js';
import { prefixedId } from '../../kernel/ids.js';
import type { ProviderId } from '../../providers/vtu/types.js';
import type { FloatDeps } from './float-deps.js';
import { floatAccount } from './model.js';

/** Funds a provider from the collections pool: the provider first, then the ledger; returns the provider's balance. */
export async function fundProvider(
  { clock, log, work, providers, floatEstimate }: FloatDeps,
  provider: ProviderId,
  amount: bigint,
  actorId: string | null,
  why: string,
): Promise<bigint> {
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
export async function ensureFloat(deps: FloatDeps, provider: ProviderId, need: bigint, force = false) {
  const { cfg, providers, floatEstimate, refilling } = deps;
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
        await fundProvider(deps, provider, topup, null, 'Just-in-time top-up');
      }
    }).finally(() => refilling.delete(provider));
    refilling.set(provider, r);
  }
  await r;
  floatEstimate.set(provider, (floatEstimate.get(provider) ?? 0n) - need);
}
