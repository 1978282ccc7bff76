import http from 'node:http';
import https from 'node:https';

/**
 * Outbound HTTP to the VTU providers and the payment processor, the hot upstreams: node:http(s) on keep-alive
 * agents. It replaced WHATWG fetch (fetch's Request/Response, header-list and stream machinery was about a
 * tenth of a VTU purchase's CPU in the service, for a small JSON request and answer). What it does not do, on
 * purpose: follow redirects, decompress (it asks for no encoding), or retry; a failed request is the caller's to
 * judge (a purchase that may have reached the provider is requeried, never sent again).
 */
export interface OutboundRequest {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Milliseconds from the call to the whole answer; then the request is abandoned (UpstreamTimeout). */
  timeoutMs: number;
}

export interface OutboundResponse {
  status: number;
  text: string;
}

/** The answer did not arrive within the request's timeout. */
export class UpstreamTimeout extends Error {}

/** Larger answers are refused: no upstream we speak to sends more than a catalogue (tens of kilobytes). */
export const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

/**
 * An idle kept-alive connection is closed after 4 s (sooner if the upstream's Keep-Alive header says so), as fetch's
 * undici did: a connection the upstream has already dropped is then rarely reused, and a purchase sent on one
 * fails as a network error (requeried, never resent).
 */
const IDLE_MS = 4_000;
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 256, timeout: IDLE_MS }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 256, timeout: IDLE_MS }),
};

export function outboundRequest(url: string, req: OutboundRequest): Promise<OutboundResponse> {
  return new Promise<OutboundResponse>((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return reject(new Error(`not a URL: ${url}`));
    }
    const protocol = target.protocol;
    if (protocol !== 'http:' && protocol !== 'https:') return reject(new Error(`unsupported protocol ${protocol}`));
    const headers: Record<string, string> = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));

    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const request = (protocol === 'https:' ? https : http).request(
      target,
      { method: req.method, headers, agent: agents[protocol] },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            settle(() => reject(new Error(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`)));
            request.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => settle(() => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') })));
        res.on('error', (err) => settle(() => reject(err)));
        res.on('close', () => {
          if (!res.complete) settle(() => reject(new Error('the connection closed before the answer was complete')));
        });
      },
    );
    const timer = setTimeout(() => {
      settle(() => reject(new UpstreamTimeout(`no answer within ${req.timeoutMs} ms`)));
      request.destroy();
    }, req.timeoutMs);
    request.on('error', (err) => settle(() => reject(err)));
    request.end(req.body);
  });
}
