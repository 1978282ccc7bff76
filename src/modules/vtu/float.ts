import type { ProviderId } from '../../providers/vtu/types.js';
import { fundFloat, listFloats } from './float-admin.js';
import type { FloatDeps } from './float-deps.js';
import { ensureFloat } from './float-funding.js';

export type ProviderFloat = ReturnType<typeof createProviderFloat>;

/**
 * Provider floats (spec rule 3): funded just in time from the collections pool when a provider's own balance
 * confirms a shortfall, or by an operator; a per-process estimate avoids asking the provider on every purchase.
 */
export function createProviderFloat(deps: Omit<FloatDeps, 'floatEstimate' | 'refilling'>) {
  const state: FloatDeps = { ...deps, floatEstimate: new Map(), refilling: new Map() };
  return {
    ensureFloat: (provider: ProviderId, need: bigint, force = false) => ensureFloat(state, provider, need, force),
    listFloats: () => listFloats(state),
    fundFloat: (actorId: string, provider: ProviderId, amount: bigint) => fundFloat(state, actorId, provider, amount),
  };
}
