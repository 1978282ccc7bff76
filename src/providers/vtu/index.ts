import { createProviderA } from './a.js';
import { createProviderB } from './b.js';
import { createProviderC, type HttpProviderConfig } from './c.js';
import { createProviderD } from './d.js';
import type { ProviderId, VtuProvider } from './types.js';
import type { VtuTransport } from './transport.js';

export interface ProviderEndpoint {
  url: string;
  key: string;
  secret?: string;
}

/** Builds the four adapters from configuration (base URL and credentials per provider). */
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
  return { a: createProviderA(cfg('a')), b: createProviderB(cfg('b')), c: createProviderC(cfg('c')), d: createProviderD(cfg('d')) };
}
