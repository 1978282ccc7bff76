import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import type { Config } from '../config.js';
import { pinnedPost, type PinnedAnswer } from '../lib/pinned-post.js';
import { hostAllowed, NotPublicError, systemResolver, type Resolver } from '../lib/public-address.js';

/**
 * Web push adapter (RFC 8030 delivery, RFC 8291 payload encryption, RFC 8292 VAPID), built on the `web-push`
 * library. The library encrypts and signs (generateRequestDetails); we send the request ourselves so that the
 * answer's status and Retry-After reach the caller intact, redirects are never followed, the connection goes only
 * to an address checked to be public (lib/pinned-post.ts, the webhooks' pinned lookup too), and a loopback push
 * service (sandbox) can be reached over http.
 */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export type PushOutcome =
  | { status: 'delivered'; httpStatus: number }
  /** 404/410: the push service forgot the subscription; the caller deletes it. */
  | { status: 'gone'; httpStatus: number }
  /** 429 or 503: retry no earlier than retryAfterMs. */
  | { status: 'throttled'; httpStatus: number; retryAfterMs: number }
  /** permanent: a 4xx that a retry cannot fix (bad payload, bad VAPID signature); otherwise worth retrying. */
  | { status: 'failed'; httpStatus: number; message: string; permanent: boolean };

export interface PushSender {
  readonly publicKey: string;
  send(
    target: PushTarget,
    payload: string,
    opts?: { ttlSeconds?: number; urgency?: 'very-low' | 'low' | 'normal' | 'high' },
  ): Promise<PushOutcome>;
}

/** Push services may drop payloads above 4096 bytes of ciphertext (RFC 8030 §7.2); keep well under it. */
export const MAX_PUSH_PAYLOAD_BYTES = 3000;
const DEFAULT_RETRY_AFTER_MS = 60_000;

/**
 * VAPID keys from config; outside production, generated once and kept under DATA_DIR/keys/vapid.json so every
 * browser subscription (bound to the public key) stays valid across restarts. Production refuses to start
 * without them (config.ts).
 */
export function loadVapidKeys(config: Config): VapidKeys {
  const { publicKey, privateKey, subject } = config.vapid;
  if (publicKey || privateKey) {
    if (!publicKey || !privateKey) throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together');
    return validated({ publicKey, privateKey, subject });
  }
  if (config.production) throw new Error('VAPID keys are required in production');
  const file = path.join(config.dataDir, 'keys', 'vapid.json');
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
    return validated({ publicKey: saved.publicKey, privateKey: saved.privateKey, subject });
  }
  const keys = webpush.generateVAPIDKeys();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return { ...keys, subject };
}

function validated(keys: VapidKeys): VapidKeys {
  // Throws a readable error on a malformed key or subject (web-push's own checks).
  webpush.generateRequestDetails({ endpoint: 'https://push.invalid/x', keys: { p256dh: '', auth: '' } }, null, { vapidDetails: keys });
  return keys;
}

function retryAfterMs(header: string | null, now: number): number {
  if (!header) return DEFAULT_RETRY_AFTER_MS;
  const secs = Number(header);
  if (Number.isFinite(secs) && secs >= 0) return Math.ceil(secs * 1000);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - now) : DEFAULT_RETRY_AFTER_MS;
}

/** Where a push request may connect: the delivery-time check. */
export interface PushConnectPolicy {
  resolver?: Resolver;
  /** Host names reachable without the public-address check (sandbox loopback push servers only). */
  loopbackAllowed?: (host: string) => boolean;
  allowedHosts?: string[];
}

export function createPushSender(keys: VapidKeys, opts: { timeoutMs?: number; policy?: PushConnectPolicy } = {}): PushSender {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const policy = opts.policy ?? {};
  return {
    publicKey: keys.publicKey,
    async send(target, payload, sendOpts = {}) {
      const url = new URL(target.endpoint);
      const host = url.hostname.toLowerCase();
      const loopback = policy.loopbackAllowed?.(host) ?? false;
      if (!loopback && (url.protocol !== 'https:' || !hostAllowed(host, policy.allowedHosts ?? []))) {
        return { status: 'failed', httpStatus: 0, message: 'push endpoint refused: not an allowed https push service', permanent: true };
      }
      const details = webpush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        payload,
        {
          vapidDetails: keys,
          TTL: sendOpts.ttlSeconds ?? 24 * 3600,
          urgency: sendOpts.urgency ?? 'normal',
          contentEncoding: 'aes128gcm',
        },
      );
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(details.headers)) headers[k] = String(v);
      let res: PinnedAnswer;
      try {
        // Redirects are never followed, so a push service cannot bounce us elsewhere; outside the sandbox's loopback
        // names the host is resolved once, checked public and connected to at that address only (no DNS rebinding).
        res = await pinnedPost(url, {
          headers,
          body: details.body ?? '',
          timeoutMs,
          resolver: loopback ? null : (policy.resolver ?? systemResolver),
        });
      } catch (err) {
        if (err instanceof NotPublicError)
          return { status: 'failed', httpStatus: 0, message: `push endpoint refused: ${err.message}`, permanent: true };
        return {
          status: 'failed',
          httpStatus: 0,
          message: `push service unreachable: ${(err as Error).name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : err instanceof Error ? err.message : String(err)}`,
          permanent: false,
        };
      }
      const text = res.text;
      if (res.status >= 200 && res.status < 300) return { status: 'delivered', httpStatus: res.status };
      if (res.status === 404 || res.status === 410) return { status: 'gone', httpStatus: res.status };
      if (res.status === 429 || res.status === 503) {
        const ra = res.headers['retry-after'];
        return { status: 'throttled', httpStatus: res.status, retryAfterMs: retryAfterMs(typeof ra === 'string' ? ra : null, Date.now()) };
      }
      const permanent = res.status >= 400 && res.status < 500 && res.status !== 408;
      return { status: 'failed', httpStatus: res.status, message: `push service answered ${res.status}: ${text.slice(0, 200)}`, permanent };
    },
  };
}
