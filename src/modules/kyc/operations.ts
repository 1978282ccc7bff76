import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { page, pageInput, pageOutput } from '../../kernel/paging.js';
import { uuidInput } from '../../kernel/inputs.js';
import { bankByCode, isValidNuban, LIVENESS_REASONS } from '../../providers/identity.js';
import { ACCESS_NEXT } from './access.js';
import { accountNumberInput, bankCodeInput as bankCodeInputOf, kycFullNameInput, ninInput } from './inputs.js';
import { CONTENT_TYPES, DOCUMENT_TYPES, FILE_PATH_RE, MAX_FILE_BYTES, KYC_SORTS, NIN_CHECKS } from './service.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['kyc']);

/** Spec 4.6 (suffix BearerKYC) plus the docs/design.md §12 extensions and the operator review operations. */

const filePath = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .max(64, `${field} is not a KYC upload path`)
    .regex(FILE_PATH_RE, `${field} must be a path returned by uploadKycFile`);

const bankCodeInput = bankCodeInputOf((c) => Boolean(bankByCode(c)));

const nubanChecked = <T extends { bankCode: string; accountNumber: string }>(v: T, ctx: z.RefinementCtx) => {
  if (bankByCode(v.bankCode) && /^\d{10}$/.test(v.accountNumber) && !isValidNuban(v.bankCode, v.accountNumber)) {
    ctx.addIssue({ code: 'custom', path: ['accountNumber'], message: 'accountNumber is not a valid NUBAN for this bank (check digit)' });
  }
};

const submissionOutput = z
  .object({
    id: z.string(),
    tier: z.number(),
    status: z.enum(['pending', 'approved', 'rejected']),
    reason: z.string().optional(),
    createdAt: z.string(),
    reviewedAt: z.string().optional(),
  })
  .meta({ id: 'KycSubmission' });

const accessOutput = z.object({
  allowed: z.boolean(),
  requiredTier: z.number(),
  next: z.enum(ACCESS_NEXT).optional(),
  message: z.string().optional(),
});

const adminSubmissionItem = submissionOutput.extend({ userId: z.string(), email: z.string() });

const signedUrlOutput = { url: z.string(), expiresAt: z.string() };

/** Base64 of 5 MiB plus the JSON envelope. */
const UPLOAD_BODY_LIMIT = Math.ceil(MAX_FILE_BYTES / 3) * 4 + 64 * 1024;

export const kycOperations = [
  defineOperation({
    name: 'getKycStatus',
    suffix: 'BearerKYC',
    method: 'GET',
    purpose:
      "the caller's approved tier, the state of each tier, and what purchases (Tier 1) and transfers (Tier 2) need next: read it before asking for a PIN",
    input: z.object({}),
    output: z.object({
      tier: z.number(),
      tiers: z.array(
        z.object({ tier: z.number(), status: z.enum(['none', 'pending', 'approved', 'rejected']), reason: z.string().optional() }),
      ),
      access: z.object({ purchases: accessOutput, transfers: accessOutput }),
    }),
    handler: async (_input, ctx) => ctx.api.kyc.status(ctx.user.id),
  }),
  defineOperation({
    name: 'uploadKycFile',
    suffix: 'BearerKYC',
    method: 'POST',
    purpose: 'upload a private KYC file (JPEG, PNG or PDF, checked by content, at most 5 MiB)',
    bodyLimit: UPLOAD_BODY_LIMIT,
    rateLimit: 'strict',
    input: z.object({
      fileName: z.string({ error: 'fileName is required' }).trim().min(1, 'fileName is required').max(255, 'fileName is too long'),
      contentType: z.enum(CONTENT_TYPES, { error: 'contentType must be image/jpeg, image/png or application/pdf' }),
      contentBase64: z.string({ error: 'contentBase64 is required' }).min(1, 'contentBase64 is required'),
    }),
    output: z.object({ path: z.string(), contentType: z.string(), sizeBytes: z.number() }),
    errors: ['PAYLOAD_TOO_LARGE', 'RATE_LIMITED'],
    handler: async (input, ctx) => ctx.api.kyc.uploadFile(ctx.user.id, input),
  }),
  defineOperation({
    name: 'submitNinKyc',
    suffix: 'BearerKYC',
    method: 'POST',
    versioned: true,
    purpose: 'submit the NIN tier (Tier 2): NIN look-up must match the profile name and verified phone; slip reviewed by an operator',
    rateLimit: 'strict',
    input: z.object({
      nin: ninInput,
      slipPath: filePath('slipPath'),
      fullName: kycFullNameInput.optional(),
    }),
    output: z.object({ submission: submissionOutput }),
    errors: ['KYC_PREVIOUS_TIER_REQUIRED', 'KYC_PROFILE_INCOMPLETE', 'CONFLICT', 'NOT_FOUND', 'RATE_LIMITED', 'UPSTREAM_ERROR'],
    handler: async (input, ctx) => ({ submission: await ctx.api.kyc.submitNin(ctx.user.id, input) }),
  }),
  defineOperation({
    name: 'submitBankKyc',
    suffix: 'BearerKYC',
    method: 'POST',
    versioned: true,
    purpose: 'submit the bank tier (Tier 3): name enquiry must match the verified name; ID document reviewed by an operator',
    rateLimit: 'strict',
    input: z
      .object({
        bankCode: bankCodeInput,
        accountNumber: accountNumberInput,
        documentType: z.enum(DOCUMENT_TYPES, { error: `documentType must be one of ${DOCUMENT_TYPES.join(', ')}` }),
        documentPath: filePath('documentPath'),
      })
      .superRefine(nubanChecked),
    output: z.object({ submission: submissionOutput }),
    errors: ['KYC_PREVIOUS_TIER_REQUIRED', 'CONFLICT', 'NOT_FOUND', 'UPSTREAM_ERROR'],
    handler: async (input, ctx) => ({ submission: await ctx.api.kyc.submitBank(ctx.user.id, input) }),
  }),
  defineOperation({
    name: 'submitTier3Kyc',
    suffix: 'BearerKYC',
    method: 'POST',
    versioned: true,
    purpose:
      'submit liveness frames (the face-liveness tier, Tier 1): checked by the identity provider at once; approved, rejected with what to do differently, or pending for an operator when the check is unsure or unavailable',
    rateLimit: 'strict',
    input: z.object({
      frames: z
        .array(filePath('frames[]'), { error: 'frames must be a list of upload paths' })
        .min(3, 'send at least 3 liveness frames')
        .max(5, 'send at most 5 liveness frames')
        .refine((f) => new Set(f).size === f.length, 'frames must be different uploads'),
    }),
    output: z.object({ submission: submissionOutput }),
    errors: ['CONFLICT', 'NOT_FOUND'],
    handler: async (input, ctx) => ({ submission: await ctx.api.kyc.submitLiveness(ctx.user.id, input) }),
  }),
  defineOperation({
    name: 'getKycFileUrl',
    suffix: 'BearerKYC',
    method: 'POST',
    versioned: true,
    purpose: 'short-lived (5 minutes) signed URL for a KYC upload; owner and operators only',
    input: z.object({ path: filePath('path') }),
    output: z.object(signedUrlOutput),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.kyc.fileUrl(ctx.user, input.path),
  }),
  defineOperation({
    name: 'lookupNin',
    suffix: 'BearerKYC',
    method: 'POST',
    purpose: "server-side NIN look-up: whether the NIN's record matches the caller's profile name and verified phone (Tier 1, a few a day)",
    rateLimit: 'strict',
    // Not a free oracle. Tier 1, a daily quota, one flag (see kyc service lookupNin).
    gates: { kycTier: 1 },
    input: z.object({ nin: ninInput }),
    output: z.object({ matchesProfile: z.boolean() }),
    errors: ['RATE_LIMITED', 'UPSTREAM_ERROR'],
    handler: async (input, ctx) => ctx.api.kyc.lookupNin(ctx.user.id, input.nin),
  }),
  defineOperation({
    name: 'verifyBankAccount',
    suffix: 'BearerKYC',
    method: 'POST',
    purpose: 'bank account name enquiry (NUBAN check digit validated first)',
    rateLimit: 'strict',
    input: z.object({ accountNumber: accountNumberInput, bankCode: bankCodeInput }).superRefine(nubanChecked),
    output: z.object({ accountName: z.string(), bankCode: z.string(), bankName: z.string() }),
    errors: ['UPSTREAM_ERROR'],
    handler: async (input, ctx) => ctx.api.kyc.verifyBankAccount(input.bankCode, input.accountNumber),
  }),
  defineOperation({
    name: 'listBanks',
    suffix: 'BearerKYC',
    method: 'GET',
    versioned: true,
    purpose: 'list Nigerian banks with their CBN codes',
    cacheSeconds: 1800,
    input: z.object({}),
    output: z.object({ items: z.array(z.object({ code: z.string(), name: z.string() })) }),
    handler: async (_input, ctx) => ({ items: ctx.api.kyc.listBanks() }),
  }),

  // ---- operators ---------------------------------------------------------------------------------------------
  defineOperation({
    name: 'adminListKycSubmissions',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'GET',
    purpose: 'KYC submissions awaiting review (or by status), newest first, oldest first or by tier',
    input: z.object({
      status: z.enum(['pending', 'approved', 'rejected'], { error: 'status must be pending, approved or rejected' }).default('pending'),
      tier: z.coerce
        .number({ error: 'tier must be 1, 2 or 3' })
        .int()
        .min(1, 'tier must be 1, 2 or 3')
        .max(3, 'tier must be 1, 2 or 3')
        .optional(),
      sort: z.enum(KYC_SORTS, { error: 'sort must be newest, oldest or tier' }).default('newest'),
      ...pageInput,
    }),
    output: pageOutput(adminSubmissionItem),
    handler: async (input, ctx) => page(await ctx.api.kyc.adminList(input), input.limit, input.offset),
  }),
  defineOperation({
    name: 'adminGetKycSubmission',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'GET',
    purpose: 'one KYC submission with signed URLs to its files',
    input: z.object({ submissionId: uuidInput('submissionId') }),
    output: z.object({
      submission: adminSubmissionItem.extend({
        profileName: z.string().nullable(),
        phone: z.string().nullable(),
        phoneVerified: z.boolean(),
        verifiedName: z.string().nullable(),
        details: z.object({
          liveness: z
            .object({
              outcome: z.enum(['pass', 'fail', 'review', 'unavailable']),
              score: z.number().optional(),
              reason: z.enum(LIVENESS_REASONS).optional(),
              review: z.enum(['provider', 'low_score', 'unavailable', 'repeated_fails']).optional(),
            })
            .optional(),
          nameMatched: z.boolean().optional(),
          phoneMatched: z.boolean().optional(),
          /** Why the automatic NIN checks failed (the applicant only sees one general reason). */
          failedChecks: z.array(z.enum(NIN_CHECKS)).optional(),
          ninMasked: z.string().optional(),
          bankCode: z.string().optional(),
          bankName: z.string().optional(),
          accountNumberMasked: z.string().optional(),
          documentType: z.string().optional(),
        }),
        files: z.array(
          z.object({ role: z.string(), path: z.string(), contentType: z.string(), sizeBytes: z.number(), ...signedUrlOutput }),
        ),
        reviewedBy: z.string().nullable(),
      }),
    }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ({ submission: await ctx.api.kyc.adminGet(input.submissionId) }),
  }),
  defineOperation({
    name: 'adminReviewKyc',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'POST',
    stepUpExempt: 'a decision on the documents a customer submitted, by the role that reviews them; audited and told to the customer',
    purpose: 'approve or reject a pending KYC submission (reason required on reject); audited and notified',
    input: z
      .object({
        submissionId: uuidInput('submissionId'),
        decision: z.enum(['approve', 'reject'], { error: 'decision must be approve or reject' }),
        reason: z.string().trim().min(3, 'reason is too short').max(500, 'reason is too long').optional(),
      })
      .superRefine((v, ctx) => {
        if (v.decision === 'reject' && !v.reason)
          ctx.addIssue({ code: 'custom', path: ['reason'], message: 'reason is required when rejecting' });
      }),
    output: z.object({ submission: submissionOutput }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => {
      ctx.audit.target('kyc_submission', input.submissionId);
      const submission = await ctx.api.kyc.adminReview(ctx.user, input);
      ctx.audit.change({ status: 'pending' }, { status: submission.status, reason: submission.reason ?? null });
      return { submission };
    },
  }),
];
