import { createOrderQueryProvider } from './order-query.js';
import { createSmeDataProvider } from './sme-data.js';
import type { HttpProviderConfig } from './transport.js';
import { createVtpassProvider } from './vtpass.js';
import type { ProviderId, VtuProvider } from './types.js';
import type { VtuTransport } from './transport.js';

export interface ProviderEndpoint {
  url: string;
  key: string;
  secret?: string;
}

/**
 * Builds the four adapters from configuration (base URL and credentials per provider). The letters are the
 * configuration's names (VTU_PROVIDER_<A-D>_*, VTU_ROUTING); each speaks a protocol: A and B SME data (data first at
 * A, B its fallback), C the VTpass-style protocol, D order-and-query (betting, exam pins, social boosts).
 */
export function createVtuProviders(
  endpoints: Record<ProviderId, ProviderEndpoint>,
  timeoutMs: number,
  transport: VtuTransport,
): Record<ProviderId, VtuProvider> {
  const cfg = (id: ProviderId): HttpProviderConfig => ({
    baseUrl: endpoints[id].url.replace(/\/$/, ''),
    key: endpoints[id].key,
    secret: endpoints[id].secret,
    timeoutMs,
    transport,
  });
  return {
    a: createSmeDataProvider('a', cfg('a')),
    b: createSmeDataProvider('b', cfg('b')),
    c: createVtpassProvider('c', cfg('c')),
    d: createOrderQueryProvider('d', cfg('d')),
  };
}
