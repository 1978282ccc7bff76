import type { FastifyInstance } from 'fastify';

/**
 * Log-leak detector. Every harness records the secrets its test file handles — PINs, OTP codes,
 * TOTP codes and secrets, session and grant tokens, NINs, BVNs, bank account numbers — by watching the requests
 * and answers that pass through `app.inject` and the PIN factory, and at close() scans its captured log lines
 * for any of them.
 *
 * Matching rule (documented so a failure can be judged):
 * - long values (8 characters or more: tokens, TOTP secrets, NINs, BVNs, account numbers) match anywhere in a
 *   line; all-digit ones only when not part of a longer digit run, so a 10-digit account number does not match
 *   inside a 13-digit epoch timestamp;
 * - short values (PINs, 6-digit OTP and TOTP codes) would match random numbers in log lines (amounts in kobo,
 *   latencies), so they match only as a whole JSON string value (`"1234"`) or right after a secret-like key
 *   (`pin: 1234`, `"code":"123456"`, `code=123456`, `your code is 123456`: the word, then at most 12
 *   characters that are not digits, then the value).
 */
export type SecretKind =
  'pin' | 'otp' | 'totp-code' | 'totp-secret' | 'access-token' | 'refresh-token' | 'grant-token' | 'nin' | 'bvn' | 'account-number';

export type SecretStore = Map<string, SecretKind>;

/** Request input keys whose values are secrets, with the shape a real value has (fuzzed junk is not recorded). */
const INPUT_KEYS: Record<string, { kind: SecretKind; shape: RegExp }> = {
  pin: { kind: 'pin', shape: /^\d{4,6}$/ },
  currentPin: { kind: 'pin', shape: /^\d{4,6}$/ },
  newPin: { kind: 'pin', shape: /^\d{4,6}$/ },
  code: { kind: 'otp', shape: /^\d{6}$/ },
  otp: { kind: 'otp', shape: /^\d{6}$/ },
  totpCode: { kind: 'totp-code', shape: /^\d{6}$/ },
  nin: { kind: 'nin', shape: /^\d{11}$/ },
  bvn: { kind: 'bvn', shape: /^\d{11}$/ },
  accountNumber: { kind: 'account-number', shape: /^\d{10}$/ },
};

/** Answer keys whose values are secrets (tokens sent back in later requests were recorded when issued). */
const OUTPUT_KEYS: Record<string, SecretKind> = {
  accessToken: 'access-token',
  refreshToken: 'refresh-token',
  grantToken: 'grant-token',
  secret: 'totp-secret',
};

const SHORT = 8;
const SECRET_KEY = '(?:pin|currentPin|newPin|code|otp|totpCode|password)';

export function recordSecret(store: SecretStore, kind: SecretKind, value: unknown) {
  // Tokens and secrets are at most a few hundred characters; longer strings are fuzzed junk.
  if (typeof value !== 'string' || value.length < 4 || value.length > 2048) return;
  store.set(value, kind);
}

function walk(value: unknown, visit: (key: string, v: unknown) => void, depth = 0) {
  if (!value || typeof value !== 'object' || depth > 6) return;
  for (const [k, v] of Object.entries(value)) {
    visit(k, v);
    walk(v, visit, depth + 1);
  }
}

function recordInput(store: SecretStore, body: unknown) {
  walk(body, (k, v) => {
    const rule = Object.hasOwn(INPUT_KEYS, k) ? INPUT_KEYS[k] : undefined;
    if (rule && typeof v === 'string' && rule.shape.test(v)) recordSecret(store, rule.kind, v);
  });
}

function recordOutput(store: SecretStore, url: string, body: unknown) {
  walk(body, (k, v) => {
    if (Object.hasOwn(OUTPUT_KEYS, k)) recordSecret(store, OUTPUT_KEYS[k], v);
  });
  // The sandbox mailbox and SMS outbox hold the OTP codes a test reads.
  if (url.startsWith('/sandbox/mailbox') || url.startsWith('/sandbox/sms')) {
    const items = (body as { items?: Array<{ text?: unknown }> } | null)?.items ?? [];
    for (const item of Array.isArray(items) ? items : []) {
      for (const m of String(item?.text ?? '').matchAll(/(?<!\d)(\d{6})(?!\d)/g)) recordSecret(store, 'otp', m[1]);
    }
  }
}

function parseMaybeJson(payload: unknown): unknown {
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
    try {
      return JSON.parse(payload.toString());
    } catch {
      return undefined;
    }
  }
  return payload;
}

const paused = new WeakSet<SecretStore>();

/**
 * Runs `fn` without recording what its requests carry: fuzzed junk that merely has a secret's shape (an
 * 11-digit "nin") is no secret, and the fuzzer reuses such values in URLs, which are logged by design.
 */
export async function unrecorded<T>(store: SecretStore, fn: () => Promise<T>): Promise<T> {
  paused.add(store);
  try {
    return await fn();
  } finally {
    paused.delete(store);
  }
}

/** Wraps app.inject (every test request goes through it) and the PIN factory to record the secrets they carry. */
export function instrumentSecrets(app: FastifyInstance, store: SecretStore) {
  const inject = app.inject.bind(app) as (...args: any[]) => any;
  (app as any).inject = (opts?: any, cb?: any) => {
    // Chain form (no options) and callback form are passed through untouched.
    if (opts === undefined || cb !== undefined || typeof opts !== 'object' || paused.has(store)) return inject(opts, cb);
    recordInput(store, parseMaybeJson(opts.payload ?? opts.body));
    const url = String(opts.url ?? opts.path ?? '');
    return Promise.resolve(inject(opts)).then((res: any) => {
      if (String(res.headers?.['content-type'] ?? '').includes('json')) recordOutput(store, url, parseMaybeJson(res.body));
      return res;
    });
  };
  const pins = (app as any).services?.pins;
  if (pins && typeof pins.set === 'function') {
    const set = pins.set.bind(pins);
    pins.set = async (userId: string, kind: string, pin: string) => {
      recordSecret(store, 'pin', pin);
      return set(userId, kind, pin);
    };
  }
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function matcherFor(value: string): RegExp {
  const v = escapeRe(value);
  // After a secret word: `"pin":"1234"`, `code=123456`, `Your code is 123456`, `PIN 1234`.
  if (value.length < SHORT) return new RegExp(`"${v}"|(?<![A-Za-z0-9_])${SECRET_KEY}(?![A-Za-z])[^0-9]{0,12}(?<!\\d)${v}(?!\\d)`, 'i');
  if (/^\d+$/.test(value)) return new RegExp(`(?<!\\d)${v}(?!\\d)`);
  return new RegExp(v);
}

export interface Leak {
  kind: SecretKind;
  line: string;
}

export function findLeaks(store: SecretStore, logs: string[]): Leak[] {
  const leaks: Leak[] = [];
  const matchers = [...store].map(([value, kind]) => ({ kind, re: matcherFor(value) }));
  for (const chunk of logs) {
    for (const line of chunk.split('\n')) {
      if (!line) continue;
      for (const m of matchers)
        if (m.re.test(line)) leaks.push({ kind: m.kind, line: line.length > 600 ? line.slice(0, 600) + '…' : line });
    }
  }
  return leaks;
}

/** Throws naming every leaked secret's kind and the log line it appeared in. */
export function assertNoLeaks(store: SecretStore, logs: string[]) {
  const leaks = findLeaks(store, logs);
  if (!leaks.length) return;
  const shown = leaks.slice(0, 10).map((l) => `  [${l.kind}] ${l.line}`);
  throw new Error(`Secrets leaked into the logs (${leaks.length} line(s)):\n${shown.join('\n')}`);
}
