import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import type { Config } from '../config.js';

/**
 * Web push adapter (RFC 8030 delivery, RFC 8291 payload encryption, RFC 8292 VAPID), built on the `web-push`
 * library. The library encrypts and signs (generateRequestDetails); we send the request ourselves with fetch so
 * that the answer's status and Retry-After reach the caller intact, redirects are never followed, and a
 * loopback push service (tests, sandbox) can be reached over plain http.
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
  send(target: PushTarget, payload: string, opts?: { ttlSeconds?: number; urgency?: 'very-low' | 'low' | 'normal' | 'high' }): Promise<PushOutcome>;
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

export function createPushSender(keys: VapidKeys, opts: { timeoutMs?: number; fetch?: typeof fetch } = {}): PushSender {
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  return {
    publicKey: keys.publicKey,
    async send(target, payload, sendOpts = {}) {
      const details = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
        vapidDetails: keys,
        TTL: sendOpts.ttlSeconds ?? 24 * 3600,
        urgency: sendOpts.urgency ?? 'normal',
        contentEncoding: 'aes128gcm',
      });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(details.headers)) headers[k] = String(v);
      // fetch computes the length itself and refuses a caller-set Content-Length.
      delete headers['Content-Length'];
      let res: Response;
      try {
        res = await doFetch(details.endpoint, {
          method: 'POST',
          headers,
          body: details.body ? new Uint8Array(details.body) : undefined,
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        return { status: 'failed', httpStatus: 0, message: `push service unreachable: ${err instanceof Error ? err.message : String(err)}`, permanent: false };
      }
      const text = await res.text().catch(() => '');
      if (res.status >= 200 && res.status < 300) return { status: 'delivered', httpStatus: res.status };
      if (res.status === 404 || res.status === 410) return { status: 'gone', httpStatus: res.status };
      if (res.status === 429 || res.status === 503) {
        return { status: 'throttled', httpStatus: res.status, retryAfterMs: retryAfterMs(res.headers.get('retry-after'), Date.now()) };
      }
      const permanent = res.status >= 400 && res.status < 500 && res.status !== 408;
      return { status: 'failed', httpStatus: res.status, message: `push service answered ${res.status}: ${text.slice(0, 200)}`, permanent };
    },
  };
}
