import type { GuessSource, OtpDeps, OtpPurpose } from './otp-rules.js';
import { identifierCooldown, issueOtp } from './otp-issue.js';
import { verifyOtp } from './otp-verify.js';

export {
  OTP_COOLDOWN_MS,
  OTP_FREE_SENDS,
  OTP_MAX_ATTEMPTS,
  OTP_MAX_COOLDOWN_MS,
  OTP_MAX_WRONG_PER_CODE,
  OTP_REQUESTER_DAILY_CAP,
  OTP_TTL_MS,
  OTP_UNTRUSTED_LIMIT,
  otpCooldownMs,
} from './otp-rules.js';
export type { GuessSource, OtpPurpose } from './otp-rules.js';

export interface OtpService {
  /**
   * Creates a code and returns it for the caller to deliver; throws OTP_COOLDOWN or OTP_DAILY_LIMIT (this requester,
   * this identifier). `requester`: the caller's IP, counted by its address key (an IPv6 /64).
   */
  issue(purpose: OtpPurpose, identifier: string, requester?: string): Promise<string>;
  cooldownSeconds(purpose: OtpPurpose, identifier: string): Promise<number>;
  /** Consumes a valid code; throws OTP_INVALID, OTP_EXPIRED or RATE_LIMITED (unrecognised sources locked out). */
  verify(purpose: OtpPurpose, identifier: string, code: string, from?: GuessSource): Promise<void>;
}

/** One-time codes (otp-rules.ts): one file per use case, wired here. */
export function createOtpService(deps: OtpDeps): OtpService {
  return {
    cooldownSeconds: (purpose, identifier) => identifierCooldown(deps.db, purpose, identifier, deps.clock.now()),
    issue: (purpose, identifier, address) => issueOtp(deps, purpose, identifier, address),
    verify: (purpose, identifier, code, from) => verifyOtp(deps, purpose, identifier, code, from),
  };
}
