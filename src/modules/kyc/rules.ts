import type { users } from '../identity/api.js';
import type { kycFiles } from './schema.js';
import type { kycSubmissions } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { MINUTE } from '../../kernel/clock.js';
import type { LivenessOutcome, LivenessReason } from '../../providers/identity.js';
// KYC's rules and shapes (docs/design.md §9): limits, accepted files and documents, name matching, stored rows.

/** Upload limit (docs/design.md §9): 5 MiB of decoded bytes. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Signed file URLs live 5 minutes (docs/design.md §9). */
export const FILE_URL_TTL_MS = 5 * MINUTE;
/** Uploads per user per 24 h: enough for several resubmissions, not for using us as free storage. */
export const MAX_UPLOADS_PER_DAY = 40;
/**
 * NIN look-ups (lookupNin and submitNinKyc) per user per Lagos day: enough to fix a typo or a
 * profile name before the Tier 2 submission, too few to probe other people's NINs. Renaming the profile buys none.
 */
export const NIN_LOOKUPS_PER_DAY = 5;

export const CONTENT_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export type KycContentType = (typeof CONTENT_TYPES)[number];
export const EXTENSION: Record<KycContentType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' };
export const IMAGE_TYPES: KycContentType[] = ['image/jpeg', 'image/png'];

/** Upload paths as handed out by uploadKycFile: a random name, no directories, so no traversal is expressible. */
export const FILE_PATH_RE = /^[A-Za-z0-9_-]{32}\.(jpg|png|pdf)$/;

export const DOCUMENT_TYPES = ['national_id', 'nin_slip', 'passport', 'drivers_licence', 'voters_card'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export type KycStatus = 'pending' | 'approved' | 'rejected';

/** Checks magic bytes: the declared type must be what the file really is. */
export function sniffContentType(bytes: Buffer): KycContentType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 5 && bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return null;
}

export function nameTokens(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((t) => t.length >= 2);
}

/**
 * Two names match when every word of the shorter one (at least two words) appears in the longer one, in any
 * order: "Ada Obi" matches "OBI ADA GRACE" (bank account names put the surname first; middle names optional).
 */
export function namesMatch(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const ta = new Set(nameTokens(a));
  const tb = new Set(nameTokens(b));
  const [small, big] = ta.size <= tb.size ? [ta, tb] : [tb, ta];
  if (small.size < 2) return false;
  for (const t of small) if (!big.has(t)) return false;
  return true;
}

export const mask = (digits: string) => `${'*'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;

export interface KycFileRef {
  role: 'frame' | 'slip' | 'document';
  path: string;
}

/** Why a NIN submission failed its automatic checks: for the operator only (the applicant gets NIN_MISMATCH_REASON). */
export const NIN_CHECKS = ['nin_not_found', 'name_mismatch', 'phone_mismatch', 'nin_linked_elsewhere'] as const;
export type NinCheckFailure = (typeof NIN_CHECKS)[number];

export const NIN_CHECK_TEXT: Record<NinCheckFailure, string> = {
  nin_not_found: 'no NIN record was found for this number',
  name_mismatch: 'the name on the NIN record does not match the profile name',
  phone_mismatch: 'the phone number on the NIN record is not the verified phone number',
  nin_linked_elsewhere: 'this NIN is already linked to another account',
};

/**
 * The one answer of submitNinKyc to every failed check: telling "no such NIN", "another name", "another phone" and
 * "someone else's" apart would let anyone test NINs and names against the registry.
 */
export const NIN_MISMATCH_REASON =
  'We could not match this NIN to your profile name and verified phone number. Check the NIN, and that your profile name and phone number are the ones on your NIN record, then submit again';

export function ninCheckFailures(c: { found: boolean; nameMatched: boolean; phoneMatched: boolean; duplicate: boolean }) {
  const failed: NinCheckFailure[] = [];
  if (!c.found) failed.push('nin_not_found');
  else {
    if (!c.nameMatched) failed.push('name_mismatch');
    if (!c.phoneMatched) failed.push('phone_mismatch');
  }
  if (c.duplicate) failed.push('nin_linked_elsewhere');
  return failed;
}

/**
 * Tier 1 in seconds (issue 29): a provider "pass" approves at once only with a confidence of at least this much;
 * a lower or missing score goes to an operator (docs/decisions.md).
 */
export const LIVENESS_PASS_SCORE = 0.9;
/**
 * Failed automatic liveness checks per user in 24 hours after which a "pass" also goes to an operator: someone
 * trying photo after photo until one gets through meets a person, not luck.
 */
export const LIVENESS_FAILS_BEFORE_REVIEW = 3;

/** What the customer is told after a failed check: what to do differently on the next try. */
export const LIVENESS_ADVICE: Record<LivenessReason, string> = {
  no_face: 'We could not find your face in the pictures. Hold the phone at eye level, face the camera and try again',
  multiple_faces: 'More than one face was in the pictures. Take the selfie on your own and try again',
  not_live:
    'We could not confirm a live person in front of the camera. Take the selfie yourself, not a photo of a photo or a screen, and try again',
  poor_quality: 'The pictures were too dark or blurred. Move to good light, hold the phone still and try again',
  frames_differ: 'The pictures did not all show the same person. Take them in one go and try again',
  unknown: 'We could not confirm your face. Take the selfie again in good light, facing the camera',
};

/** The automatic check as the operator sees it: the provider's answer, or `unavailable` when it gave none. */
export interface LivenessDetails {
  outcome: LivenessOutcome | 'unavailable';
  score?: number;
  reason?: LivenessReason;
  /** Why it waits for an operator rather than being decided: the provider said so, a low score, repeated fails. */
  review?: 'provider' | 'low_score' | 'unavailable' | 'repeated_fails';
}

export interface SubmissionDetails {
  liveness?: LivenessDetails;
  nameMatched?: boolean;
  phoneMatched?: boolean;
  failedChecks?: NinCheckFailure[];
  ninMasked?: string;
  bankCode?: string;
  bankName?: string;
  accountNumberMasked?: string;
  documentType?: string;
}

export type SubmissionRow = Narrowed<
  Pick<
    RowOf<typeof kycSubmissions>,
    | 'id'
    | 'user_id'
    | 'tier'
    | 'status'
    | 'files'
    | 'verified_name'
    | 'details'
    | 'identifier_hash'
    | 'reason'
    | 'reviewed_by'
    | 'reviewed_at'
    | 'created_at'
  >,
  { status: KycStatus; files: KycFileRef[]; details: SubmissionDetails }
>;

export type FileRow = Narrowed<
  Pick<RowOf<typeof kycFiles>, 'path' | 'user_id' | 'storage_key' | 'content_type' | 'size_bytes'>,
  { content_type: KycContentType }
>;

/** What the transfer eligibility check reads of a user. */
export type EligibilityRow = Pick<RowOf<typeof users>, 'kyc_tier' | 'full_name'> & Pick<RowOf<typeof kycSubmissions>, 'verified_name'>;

export const TIER_LABEL: Record<number, string> = {
  1: 'Tier 1 (face liveness)',
  2: 'Tier 2 (NIN and phone)',
  3: 'Tier 3 (bank account and ID document)',
};

export function capitalise(s: string) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
