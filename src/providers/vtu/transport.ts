import { UpstreamTimeout } from '../http-client.js';
import type { HttpTransport } from '../http-transport.js';
import type { ProviderAnswer, ProviderClient, ProviderId } from './types.js';
import { ProviderError, type Outcome, type Phase } from './types.js';

export type { ProviderAnswer } from './types.js';

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

/** An amount in naira as a provider writes it (number or numeric string) in kobo; null when it is not a number. */
export function koboOf(n: unknown): bigint | null {
  const v = typeof n === 'string' ? Number(n) : typeof n === 'number' ? n : NaN;
  return Number.isFinite(v) ? BigInt(Math.round(v * 100)) : null;
}

/**
 * The JSON calls every HTTP provider adapter makes, with its own authentication headers: `call` answers the
 * status and parsed body whatever they are; `read` (catalogues, verification, balances) insists on a 2xx JSON
 * object and says which of timeout, HTTP error or malformed answer it got; `outcome` turns a purchase or requery
 * answer into an Outcome with the adapter's parser, a timeout or provider error being "unknown" (ask again later).
 */
export function providerClient(
  id: ProviderId,
  cfg: { baseUrl: string; timeoutMs: number; transport: VtuTransport },
  headers: () => Record<string, string>,
): ProviderClient {
  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ProviderAnswer> {
    const res = await cfg.transport.request(id, { method, url: cfg.baseUrl + path, headers: headers(), body, timeoutMs: cfg.timeoutMs });
    return { status: res.status, body: parseJson(res.text) };
  }
  async function read(method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> {
    let res;
    try {
      res = await call(method, path, body);
    } catch (err) {
      if (err instanceof UpstreamTimeout) throw new ProviderError(id, err.message, 'timeout');
      throw err;
    }
    if (res.status >= 400) throw new ProviderError(id, `provider ${id} answered HTTP ${res.status} on ${path}`, 'http');
    if (!res.body || typeof res.body !== 'object')
      throw new ProviderError(id, `provider ${id} answered malformed JSON on ${path}`, 'malformed');
    return res.body;
  }
  async function outcome(
    send: () => Promise<ProviderAnswer>,
    parse: (res: ProviderAnswer, phase: Phase) => Outcome,
    phase: Phase = 'purchase',
  ) {
    try {
      return parse(await send(), phase);
    } catch (err) {
      if (err instanceof UpstreamTimeout || err instanceof ProviderError)
        return { status: 'unknown', message: err.message } satisfies Outcome;
      throw err;
    }
  }
  return { call, read, outcome };
}

/** What an HTTP provider adapter is built from: its base URL, credentials, time-out and the transport. */
export interface HttpProviderConfig {
  baseUrl: string;
  key: string;
  secret?: string;
  timeoutMs: number;
  transport: VtuTransport;
}
