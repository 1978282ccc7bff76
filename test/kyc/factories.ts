import { randomBytes, randomInt } from 'node:crypto';
import { call, type Harness, type TestUser } from '../helpers/harness.js';
import { user } from '../helpers/factories.js';
import { nubanCheckDigit } from '../../src/providers/identity.js';

/** KYC test factories. Other areas may use approveKycTier2 to give a user a transfer-eligible Tier 2 record. */

export const FILE_BYTES = {
  jpeg: () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(200)]),
  png: () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200)]),
  pdf: () => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(200)]),
};
const TYPE = { jpeg: 'image/jpeg', png: 'image/png', pdf: 'application/pdf' } as const;

let phoneSeq = 0;
/** A fresh 11-digit MTN number, unique within the run. */
export function freshPhone(): string {
  phoneSeq += 1;
  return `0803${String(process.pid % 1000).padStart(3, '0')}${String(phoneSeq).padStart(4, '0')}`;
}

const usedNins = new Set<string>();
/**
 * A fresh 11-digit NIN, unique within the run. Random digits: a NIN built from the pid and a zero-padded counter
 * (7PPPPP0000N) once turned up inside a float in a log line (…7239000000071…) and failed the secrecy test.
 */
export function freshNin(): string {
  for (;;) {
    const nin = `7${randomInt(0, 10_000_000_000).toString().padStart(10, '0')}`;
    if (/0{4}/.test(nin) || usedNins.has(nin)) continue;
    usedNins.add(nin);
    return nin;
  }
}

/** A valid NUBAN for the bank (check digit computed). */
export function nuban(bankCode: string, serial = String(Math.floor(Math.random() * 1e9)).padStart(9, '0')): string {
  return serial + String(nubanCheckDigit(bankCode, serial));
}

/**
 * Signs a user in and sets profile facts directly in SQL: the phone OTP flow belongs to another area, so the
 * verified phone is written as that flow would leave it (users.phone + phone_verified_at).
 */
export async function kycUser(
  h: Harness,
  opts: { fullName?: string | null; phone?: string | null; verified?: boolean } = {},
): Promise<TestUser & { phone: string | null }> {
  const phone = opts.phone === undefined ? freshPhone() : opts.phone;
  const u = await user(h, { fullName: opts.fullName === undefined ? 'Ada Grace Obi' : opts.fullName, phone, phoneVerified: opts.verified });
  return { ...u, phone };
}

export async function upload(h: Harness, token: string, kind: keyof typeof FILE_BYTES = 'jpeg'): Promise<string> {
  const res = await call(
    h,
    'POST',
    '/_serverFn/uploadKycFileBearerKYC',
    { fileName: `x.${kind}`, contentType: TYPE[kind], contentBase64: FILE_BYTES[kind]().toString('base64') },
    { token },
  );
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.body}`);
  return res.json().path;
}

export async function registerNin(h: Harness, p: { nin: string; firstName: string; lastName: string; middleName?: string; phone: string }) {
  const res = await h.app.inject({ method: 'POST', url: '/sandbox/identity/nin', payload: { dateOfBirth: '1990-04-01', ...p } });
  if (res.statusCode !== 200) throw new Error(`sandbox nin failed: ${res.body}`);
}

export async function registerAccount(h: Harness, p: { bankCode: string; accountNumber: string; accountName: string }) {
  const res = await h.app.inject({ method: 'POST', url: '/sandbox/banks/accounts', payload: p });
  if (res.statusCode !== 200) throw new Error(`sandbox account failed: ${res.body}`);
}

/** Sets the sandbox liveness simulator's answer for a customer (none set: pass). */
export async function livenessOutcome(
  h: Harness,
  email: string,
  outcome: 'pass' | 'fail' | 'review' | 'down' | 'timeout',
  extra: { score?: number; reason?: string } = {},
) {
  const res = await h.app.inject({ method: 'POST', url: '/sandbox/identity/liveness', payload: { email, outcome, ...extra } });
  if (res.statusCode !== 200) throw new Error(`sandbox liveness failed: ${res.body}`);
}
