import { timedUpstream } from '../../lib/metrics.js';
import { outboundRequest, UpstreamTimeout } from '../http-client.js';
import type { ProviderId } from './types.js';
import { ProviderError } from './types.js';

/**
 * How adapters reach a provider: real HTTP (src/providers/http-client.ts) by default. When the sandbox simulators are mounted in
 * this very app and the app is not listening on a socket (tests, scripts), requests to the sandbox base URL go
 * through Fastify's in-process inject instead: same routes, same HTTP semantics, no socket. Either way the
 * adapter's timeout is enforced on the wall clock, so a held request ("4444") really times out.
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

export class TransportTimeout extends Error {}

export interface InProcessApp {
  inject(opts: {
    method: 'GET' | 'POST';
    url: string;
    headers?: Record<string, string>;
    payload?: string;
  }): Promise<{ statusCode: number; body: string }>;
  server: { listening: boolean };
}

export class VtuTransport {
  private app: InProcessApp | null = null;
  private prefix: string | null = null;

  /** Called by the sandbox registrar: requests under `baseUrl` (our PUBLIC_URL) may be served in-process by `app`. */
  useInProcess(app: InProcessApp, baseUrl: string): void {
    this.app = app;
    this.prefix = baseUrl.replace(/\/$/, '');
  }

  async request(provider: ProviderId, req: HttpRequest): Promise<HttpResponse> {
    return timedUpstream(
      `vtu:${provider}`,
      () => this.send(provider, req),
      (err) => err instanceof TransportTimeout,
    );
  }

  private async send(provider: ProviderId, req: HttpRequest): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...(req.headers ?? {}) };
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    if (payload !== undefined) headers['content-type'] = 'application/json';

    if (this.app && this.prefix && req.url.startsWith(this.prefix) && !this.app.server.listening) {
      const path = req.url.slice(this.prefix.length) || '/';
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new TransportTimeout(`provider ${provider} did not answer within ${req.timeoutMs} ms`)),
          req.timeoutMs,
        );
      });
      try {
        const res = await Promise.race([this.app.inject({ method: req.method, url: path, headers, payload }), timeout]);
        return { status: res.statusCode, text: res.body };
      } finally {
        clearTimeout(timer);
      }
    }

    try {
      return await outboundRequest(req.url, { method: req.method, headers, body: payload, timeoutMs: req.timeoutMs });
    } catch (err) {
      if (err instanceof UpstreamTimeout) throw new TransportTimeout(`provider ${provider} did not answer within ${req.timeoutMs} ms`);
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
