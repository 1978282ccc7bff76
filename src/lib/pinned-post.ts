import http from 'node:http';
import https from 'node:https';
import { resolvePublic, type Resolver } from './public-address.js';

/**
 * One POST to an address resolved once: the one pinned lookup of outbound webhooks (issue 45) and web push
 * (providers/push.ts), against SSRF. With `resolver`, the host is resolved before connecting, every address it gives
 * is checked public (resolvePublic: NotPublicError otherwise, a literal address included), and the socket connects to
 * that checked address and no other: the request's `lookup` answers it instead of asking DNS again, so a name that
 * rebinds to a private address between the check and the connection (DNS rebinding) never reaches it. TLS still
 * verifies the certificate against the URL's host name. Without a resolver (the sandbox: loopback receivers) the
 * system's DNS is used unchecked. Redirects are never followed.
 */
export interface PinnedPost {
  headers: Record<string, string>;
  body: string | Buffer;
  timeoutMs: number;
  /** Null: no check, the system's lookup (the sandbox). */
  resolver: Resolver | null;
}

/** The answer: its status, headers and the first MAX_ANSWER_BYTES of its body (push services' error text). */
export interface PinnedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export const MAX_ANSWER_BYTES = 4096;

type Lookup = NonNullable<http.RequestOptions['lookup']>;

/** A lookup that answers one address whatever it is asked. */
const pinnedTo = (a: { address: string; family: number }): Lookup =>
  ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
    options?.all ? callback(null, [a]) : callback(null, a.address, a.family)) as Lookup;

/** The answer; throws NotPublicError before connecting, or the connection's error (a timeout: TimeoutError). */
export async function pinnedPost(url: URL, opts: PinnedPost): Promise<PinnedAnswer> {
  const lookup = opts.resolver ? pinnedTo(await resolvePublic(url.hostname, opts.resolver)) : undefined;
  const signal = AbortSignal.timeout(opts.timeoutMs);
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(
      url,
      { method: 'POST', headers: { ...opts.headers, 'content-length': String(Buffer.byteLength(opts.body)) }, lookup, signal },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < MAX_ANSWER_BYTES) chunks.push(c.subarray(0, MAX_ANSWER_BYTES - size));
          size += c.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', (err) => reject(signal.aborted ? Object.assign(new Error('timed out'), { name: 'TimeoutError' }) : err));
    req.end(opts.body);
  });
}
