import { AppError } from '../kernel/errors.js';
import type { StoredObject } from './storage.js';

/**
 * Identity look-up adapters (docs/design.md §9): NIN look-up and bank account name enquiry. Domain code talks to this
 * interface only; the sandbox simulator (src/sandbox/identity-simulator.ts) or the HTTP adapter below is wired
 * in by configuration. Raw upstream payloads are returned so the KYC module can store them encrypted; they are
 * never sent to clients or logged.
 */
export interface NinRecord {
  firstName: string;
  middleName: string | null;
  lastName: string;
  phone: string;
  dateOfBirth: string;
}

export interface NinLookup {
  found: boolean;
  record?: NinRecord;
  /** The upstream answer as received (stored encrypted at rest, never returned). */
  payload: unknown;
}

export interface AccountLookup {
  found: boolean;
  accountName?: string;
  payload: unknown;
}

/**
 * A selfie-liveness check, shaped the way Smile ID (SmartSelfie), Youverify and Dojah answer one: the provider
 * says pass, fail or needs review, with its confidence that a live person was in front of the camera and, on a
 * fail, why. The KYC module decides what each answer means for the customer (kyc/liveness.ts).
 */
export type LivenessOutcome = 'pass' | 'fail' | 'review';
/** Why a check failed, as our adapters normalise the providers' codes; anything else reads `unknown`. */
export const LIVENESS_REASONS = ['no_face', 'multiple_faces', 'not_live', 'poor_quality', 'frames_differ', 'unknown'] as const;
export type LivenessReason = (typeof LIVENESS_REASONS)[number];

export interface LivenessCheck {
  outcome: LivenessOutcome;
  /** 0 to 1: the provider's confidence in a live face; null when it gave none. */
  score: number | null;
  reason: LivenessReason | null;
  /** The upstream answer as received (stored encrypted at rest, never returned). */
  payload: unknown;
}

export interface LivenessImage {
  contentType: string;
  /** The bytes (local storage) or a short-lived URL the provider fetches them from (S3). */
  source: StoredObject;
}

export interface IdentityProvider {
  lookupNin(nin: string): Promise<NinLookup>;
  resolveAccount(bankCode: string, accountNumber: string): Promise<AccountLookup>;
  /**
   * `reference` is our id of the person (the providers' partner user id), never a name or a number. An upstream
   * that is down or too slow throws UPSTREAM_ERROR: the caller sends the frames to a person, never passes them.
   */
  checkLiveness(input: { reference: string; images: LivenessImage[] }): Promise<LivenessCheck>;
}

export interface Bank {
  code: string;
  name: string;
}

/**
 * Banks with their CBN institution codes (3-digit codes for deposit money banks, 6-digit codes for other
 * financial institutions). Check against the current CBN/NIBSS list before production (docs/design.md §11).
 */
export const BANKS: readonly Bank[] = [
  { code: '044', name: 'Access Bank' },
  { code: '023', name: 'Citibank Nigeria' },
  { code: '050', name: 'Ecobank Nigeria' },
  { code: '070', name: 'Fidelity Bank' },
  { code: '011', name: 'First Bank of Nigeria' },
  { code: '214', name: 'First City Monument Bank' },
  { code: '058', name: 'Guaranty Trust Bank' },
  { code: '030', name: 'Heritage Bank' },
  { code: '301', name: 'Jaiz Bank' },
  { code: '082', name: 'Keystone Bank' },
  { code: '303', name: 'Lotus Bank' },
  { code: '076', name: 'Polaris Bank' },
  { code: '105', name: 'PremiumTrust Bank' },
  { code: '101', name: 'Providus Bank' },
  { code: '221', name: 'Stanbic IBTC Bank' },
  { code: '068', name: 'Standard Chartered Bank' },
  { code: '232', name: 'Sterling Bank' },
  { code: '100', name: 'SunTrust Bank' },
  { code: '302', name: 'TAJBank' },
  { code: '102', name: 'Titan Trust Bank' },
  { code: '032', name: 'Union Bank of Nigeria' },
  { code: '033', name: 'United Bank for Africa' },
  { code: '215', name: 'Unity Bank' },
  { code: '035', name: 'Wema Bank' },
  { code: '057', name: 'Zenith Bank' },
  { code: '090267', name: 'Kuda Microfinance Bank' },
  { code: '090405', name: 'Moniepoint Microfinance Bank' },
  { code: '100004', name: 'OPay' },
  { code: '100033', name: 'PalmPay' },
];

export function bankByCode(code: string): Bank | undefined {
  return BANKS.find((b) => b.code === code);
}

const NUBAN_WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];

/**
 * CBN NUBAN check digit over the 6-digit institution code (3-digit bank codes are padded with "000") and the
 * 9-digit serial; the 10-digit account number is serial + check digit.
 */
export function nubanCheckDigit(bankCode: string, serial: string): number {
  const digits = (bankCode.padStart(6, '0') + serial).split('').map(Number);
  const sum = digits.reduce((acc, d, i) => acc + d * NUBAN_WEIGHTS[i], 0);
  return (10 - (sum % 10)) % 10;
}

export function isValidNuban(bankCode: string, accountNumber: string): boolean {
  if (!/^\d{10}$/.test(accountNumber) || !/^(\d{3}|\d{6})$/.test(bankCode)) return false;
  return nubanCheckDigit(bankCode, accountNumber.slice(0, 9)) === Number(accountNumber[9]);
}

/**
 * Production adapter for an identity-verification upstream speaking a small JSON protocol:
 * `POST {base}/nin/lookup {nin}` -> `{found, firstName, middleName?, lastName, phone, dateOfBirth}`;
 * `POST {base}/bank/resolve {bankCode, accountNumber}` -> `{found, accountName}`;
 * `POST {base}/liveness/check {reference, images:[{contentType, base64 | url}]}` -> `{outcome: pass|fail|review,
 * score?: 0-1, reason?}`; bearer API key.
 */
export function createHttpIdentityProvider(opts: { baseUrl?: string; apiKey?: string; timeoutMs?: number }): IdentityProvider {
  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    if (!opts.baseUrl) throw new AppError('SERVICE_UNAVAILABLE', 'Identity look-ups are not configured (IDENTITY_BASE_URL)');
    let res: Response;
    try {
      res = await fetch(`${opts.baseUrl.replace(/\/$/, '')}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      });
    } catch {
      // The cause may carry the request body (a NIN): it is deliberately not attached.
      throw new AppError('UPSTREAM_ERROR', 'The identity look-up service did not answer; try again shortly');
    }
    if (res.status === 404) return { found: false };
    if (!res.ok) throw new AppError('UPSTREAM_ERROR', `The identity look-up service answered ${res.status}; try again shortly`);
    const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (!json || typeof json !== 'object')
      throw new AppError('UPSTREAM_ERROR', 'The identity look-up service answered badly; try again shortly');
    return json;
  };
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  return {
    async lookupNin(nin) {
      const p = await post('/nin/lookup', { nin });
      const firstName = str(p.firstName);
      const lastName = str(p.lastName);
      if (p.found === false || !firstName || !lastName) return { found: false, payload: p };
      return {
        found: true,
        record: { firstName, lastName, middleName: str(p.middleName), phone: str(p.phone) ?? '', dateOfBirth: str(p.dateOfBirth) ?? '' },
        payload: p,
      };
    },
    async resolveAccount(bankCode, accountNumber) {
      const p = await post('/bank/resolve', { bankCode, accountNumber });
      const accountName = str(p.accountName);
      if (p.found === false || !accountName) return { found: false, payload: p };
      return { found: true, accountName, payload: p };
    },
    async checkLiveness({ reference, images }) {
      const p = await post('/liveness/check', {
        reference,
        images: images.map((i) => ({
          contentType: i.contentType,
          ...(i.source.kind === 'bytes' ? { base64: i.source.bytes.toString('base64') } : { url: i.source.url }),
        })),
      });
      return livenessAnswer(p);
    },
  };
}

/** Reads a provider's liveness answer; an answer that is not one of the three outcomes is not a pass. */
export function livenessAnswer(p: Record<string, unknown>): LivenessCheck {
  const outcome: LivenessOutcome = p.outcome === 'pass' || p.outcome === 'fail' ? p.outcome : 'review';
  const score = typeof p.score === 'number' && p.score >= 0 && p.score <= 1 ? p.score : null;
  const reason = outcome === 'fail' ? (LIVENESS_REASONS.find((r) => r === p.reason) ?? 'unknown') : null;
  return { outcome, score, reason, payload: p };
}
