import { timedUpstream } from '../lib/metrics.js';
import { outboundRequest, UpstreamTimeout } from './http-client.js';

/**
 * The one way adapters speak HTTP to upstreams: a fetch-like function. Adapters build real requests (URL,
 * method, headers, body) so a real upstream is a configuration change; only the carrier varies.
 *
 * Loopback: the sandbox simulators live on this same Fastify app under PUBLIC_URL. When a request targets our
 * own PUBLIC_URL and the app is not listening on a socket (tests build the app and call `inject`), the request
 * is carried by `app.inject` instead of the network. Once the app listens, real fetch is used for everything.
 */
export interface TransportRequest {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Milliseconds before the call is abandoned (UpstreamTimeout), on the network and in-process alike. */
  timeoutMs?: number;
  /** The upstream's name in the latency metrics (e.g. `processor:sandbox`, `sms:termii`). */
  upstream?: string;
}

export interface TransportResponse {
  status: number;
  text: string;
}

export type HttpTransport = (url: string, req: TransportRequest) => Promise<TransportResponse>;

/** The parts of a Fastify instance the loopback needs (domain code stays free of Fastify types). */
export interface InjectableApp {
  inject(opts: {
    method: 'GET' | 'POST';
    url: string;
    headers?: Record<string, string>;
    payload?: string;
  }): Promise<{ statusCode: number; body: string }>;
  server: { listening: boolean };
}

export interface LoopbackTransport {
  send: HttpTransport;
  /** Called once the app exists (services are built before the app). */
  attach(app: InjectableApp): void;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/** Real HTTP (src/providers/http-client.ts); a timeout rejects with UpstreamTimeout. */
export const networkTransport: HttpTransport = (url, req) =>
  outboundRequest(url, { method: req.method, headers: req.headers, body: req.body, timeoutMs: req.timeoutMs ?? DEFAULT_TIMEOUT_MS });

export function createLoopbackTransport(publicUrl: string, network: HttpTransport = networkTransport): LoopbackTransport {
  let app: InjectableApp | null = null;
  const base = publicUrl.replace(/\/$/, '');
  return {
    attach(a) {
      app = a;
    },
    async send(url, req) {
      const carry = async (): Promise<TransportResponse> => {
        const own = url === base || url.startsWith(`${base}/`);
        if (own && app && !app.server.listening) {
          const inApp = app;
          const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
          // The wall clock bounds an in-process call too, so a simulator that holds its answer really times out.
          let timer: NodeJS.Timeout | undefined;
          const timeout = new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new UpstreamTimeout(`no answer within ${timeoutMs} ms`)), timeoutMs);
          });
          try {
            const res = await Promise.race([
              inApp.inject({ method: req.method, url: url.slice(base.length) || '/', headers: req.headers, payload: req.body }),
              timeout,
            ]);
            return { status: res.statusCode, text: res.body };
          } finally {
            clearTimeout(timer);
          }
        }
        return network(url, req);
      };
      return req.upstream ? timedUpstream(req.upstream, carry, (err) => err instanceof UpstreamTimeout) : carry();
    },
  };
}
