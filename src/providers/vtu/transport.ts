import { UpstreamTimeout } from '../http-client.js';
import type { HttpTransport } from '../http-transport.js';
import type { ProviderId } from './types.js';
import { ProviderError } from './types.js';

/**
 * How adapters reach a provider: through the one outbound transport, real HTTP, or Fastify's in-process inject
 * for the sandbox simulators while the app is not listening (tests, scripts). Either way the adapter's timeout is
 * enforced on the wall clock, so a held request ("4444") really times out.
 */
export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
}

export interface HttpResponse {
  status: number;
  text: string;
}

/**
 * The VTU adapters' view of the one outbound transport (../http-transport.ts): JSON in and out, the provider's
 * name on the latency metrics, a timeout as UpstreamTimeout naming the provider, anything else as a network
 * ProviderError.
 */
export class VtuTransport {
  constructor(private readonly transport: HttpTransport) {}

  async request(provider: ProviderId, req: HttpRequest): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...(req.headers ?? {}) };
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await this.transport(req.url, { method: req.method, headers, body, timeoutMs: req.timeoutMs, upstream: `vtu:${provider}` });
    } catch (err) {
      if (err instanceof UpstreamTimeout) throw new UpstreamTimeout(`provider ${provider} did not answer within ${req.timeoutMs} ms`);
      throw new ProviderError(provider, `provider ${provider} is unreachable: ${(err as Error).message}`, 'network');
    }
  }
}

/** Parses a JSON body; null when it is not JSON (a malformed answer is "unknown", never a failure). */
export function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
