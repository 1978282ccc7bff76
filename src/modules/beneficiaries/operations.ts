import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { uuidInput } from '../../kernel/inputs.js';
import { NETWORKS, normalizePhone } from '../../kernel/phone.js';
import { CABLE_PROVIDERS, DISCOS } from '../vtu/api.js';
import { beneficiaryLabelInput } from './inputs.js';
import { BENEFICIARY_KINDS, type BeneficiaryInput, type BeneficiaryKind } from './service.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['beneficiaries']);
const SUFFIX = 'BearerBeneficiaries';

/**
 * Per kind: what the recipient is, how it is checked and written, and which providers it may name. The kinds are
 * the recipients of what the platform sells: a phone (airtime and data, with its network), a cable smartcard (with
 * its provider), a meter (with its distribution company and meter type), a betting account (with its company) and
 * a wallet user for transfers (by @username, no provider).
 */
const KIND_RULES: Record<
  BeneficiaryKind,
  { recipient: (v: string) => string | null; recipientHint: string; providers: readonly string[] | RegExp | null; providerHint: string }
> = {
  phone: {
    recipient: (v) => normalizePhone(v),
    recipientHint: 'Enter a Nigerian mobile number, like 08031234567',
    providers: NETWORKS,
    providerHint: `Choose the network: ${NETWORKS.join(', ')}`,
  },
  smartcard: {
    recipient: (v) => (/^\d{10,12}$/.test(v) ? v : null),
    recipientHint: 'Enter the 10 to 12 digit smartcard (IUC) number',
    providers: CABLE_PROVIDERS,
    providerHint: `Choose the cable provider: ${CABLE_PROVIDERS.join(', ')}`,
  },
  meter: {
    recipient: (v) => (/^\d{11,13}$/.test(v) ? v : null),
    recipientHint: 'Enter the 11 to 13 digit meter number',
    providers: DISCOS,
    providerHint: `Choose the distribution company: ${DISCOS.join(', ')}`,
  },
  betting: {
    recipient: (v) => (/^[A-Za-z0-9_-]{3,30}$/.test(v) ? v : null),
    recipientHint: 'Enter the betting customer ID (3 to 30 letters, digits, _ or -)',
    providers: /^[a-z0-9-]{2,30}$/,
    providerHint: 'Choose the betting company from listBetCompanies',
  },
  wallet: {
    recipient: (v) => (/^@?[A-Za-z0-9_]{3,20}$/.test(v) ? v.replace(/^@/, '').toLowerCase() : null),
    recipientHint: 'Enter the @username (3 to 20 letters, digits or _)',
    providers: null,
    providerHint: 'A wallet user has no provider',
  },
};

const labelInput = beneficiaryLabelInput;

const kindInput = z.enum(BENEFICIARY_KINDS, { error: `Kind must be one of ${BENEFICIARY_KINDS.join(', ')}` });

const saveInput = z
  .object({
    kind: kindInput,
    label: labelInput,
    recipient: z.string({ error: 'Enter the number or ID to save' }).trim().max(40, 'The number or ID is too long'),
    provider: z.string().trim().toLowerCase().max(30, 'The provider is too long').optional(),
    meterType: z.enum(['prepaid', 'postpaid'], { error: 'Meter type must be prepaid or postpaid' }).optional(),
  })
  .superRefine((v, ctx) => {
    const rule = KIND_RULES[v.kind];
    if (!rule.recipient(v.recipient)) ctx.addIssue({ code: 'custom', path: ['recipient'], message: rule.recipientHint });
    const p = rule.providers;
    const providerOk =
      p === null
        ? v.provider === undefined
        : v.provider !== undefined && (p instanceof RegExp ? p.test(v.provider) : p.includes(v.provider));
    if (!providerOk) ctx.addIssue({ code: 'custom', path: ['provider'], message: rule.providerHint });
    if (v.kind === 'meter' && !v.meterType)
      ctx.addIssue({ code: 'custom', path: ['meterType'], message: 'Choose the meter type: prepaid or postpaid' });
    if (v.kind !== 'meter' && v.meterType) ctx.addIssue({ code: 'custom', path: ['meterType'], message: 'Only a meter has a meter type' });
  });

/** The checked input as stored: the recipient in its one written form (phone 0XXXXXXXXXX, username without @). */
function toInput(v: z.infer<typeof saveInput>): BeneficiaryInput {
  return {
    kind: v.kind,
    label: v.label,
    recipient: KIND_RULES[v.kind].recipient(v.recipient)!,
    provider: v.provider ?? null,
    meterType: v.meterType ?? null,
  };
}

const beneficiaryOutput = z
  .object({
    id: z.string().nullable().meta({ description: 'null for the unsaved "my number" entry' }),
    kind: z.enum(BENEFICIARY_KINDS).meta({
      description:
        'phone: airtime/data number (provider = network); smartcard: cable IUC (provider = cable provider); meter: electricity meter ' +
        '(provider = distribution company, meterType); betting: betting customer id (provider = company); wallet: @username for transfers',
    }),
    label: z.string(),
    recipient: z.string(),
    provider: z.string().nullable(),
    meterType: z.enum(['prepaid', 'postpaid']).nullable(),
    ownNumber: z.boolean().meta({ description: "the customer's own verified phone, always listed first" }),
    createdAt: z.string().nullable(),
    updatedAt: z.string().nullable(),
  })
  .meta({ id: 'Beneficiary' });

export const beneficiaryOperations = [
  defineOperation({
    name: 'listBeneficiaries',
    suffix: SUFFIX,
    method: 'GET',
    purpose: 'saved beneficiaries, newest first, with the caller\'s own verified phone ("my number") first',
    input: z.object({ kind: kindInput.optional() }),
    output: z.object({ items: z.array(beneficiaryOutput), max: z.number().meta({ description: 'how many may be saved' }) }),
    handler: async (i, ctx) => ctx.api.beneficiaries.list(ctx.user.id, i.kind),
  }),
  defineOperation({
    name: 'saveBeneficiary',
    suffix: SUFFIX,
    method: 'POST',
    purpose: 'save a beneficiary; saving one already saved (same kind, provider and recipient) renames it',
    input: saveInput,
    output: z.object({ beneficiary: beneficiaryOutput, created: z.boolean() }),
    errors: ['CONFLICT'],
    handler: async (i, ctx) => ctx.api.beneficiaries.save(ctx.user.id, toInput(i)),
  }),
  defineOperation({
    name: 'renameBeneficiary',
    suffix: SUFFIX,
    method: 'POST',
    purpose: 'change the label of a saved beneficiary',
    input: z.object({ id: uuidInput('id'), label: labelInput }),
    output: z.object({ beneficiary: beneficiaryOutput }),
    errors: ['NOT_FOUND'],
    handler: async (i, ctx) => ctx.api.beneficiaries.rename(ctx.user.id, i.id, i.label),
  }),
  defineOperation({
    name: 'deleteBeneficiary',
    suffix: SUFFIX,
    method: 'POST',
    purpose: 'delete a saved beneficiary',
    input: z.object({ id: uuidInput('id') }),
    output: z.object({ deleted: z.boolean() }),
    errors: ['NOT_FOUND'],
    handler: async (i, ctx) => ctx.api.beneficiaries.remove(ctx.user.id, i.id),
  }),
];
