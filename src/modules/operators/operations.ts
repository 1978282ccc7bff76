import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { OPERATOR_ROLES } from '../../kernel/actor.js';
import { uuidInput } from '../../kernel/inputs.js';
import { searchAudit } from './audit-search.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['db', 'operators', 'identity']);

const role = z.enum(OPERATOR_ROLES, { error: `role must be one of ${OPERATOR_ROLES.join(', ')}` });

const operatorOutput = z.object({
  userId: z.string(),
  email: z.string(),
  roles: z.array(role),
  /** Admin through ADMIN_EMAILS: not revocable here. */
  configAdmin: z.boolean(),
  twoFactor: z.object({ totp: z.boolean(), passkeys: z.number() }),
});

const invitationOutput = z.object({
  id: z.string(),
  email: z.string(),
  role,
  /** The e-mail of the admin who invited. */
  invitedBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});

/** An instant: ISO 8601 with a zone (`2026-11-26T09:00:00Z`, `2026-11-26T10:00:00+01:00`). */
const instant = (field: string) =>
  z
    .string()
    .regex(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/,
      `${field} must be an ISO 8601 time with a zone, e.g. 2026-11-26T09:00:00Z`,
    )
    .refine((s) => !Number.isNaN(Date.parse(s)), `${field} is not a real time`)
    .transform((s) => new Date(s));

const auditItem = z.object({
  id: z.string(),
  at: z.string(),
  operatorId: z.string().nullable(),
  operatorEmail: z.string().nullable(),
  roles: z.array(z.string()),
  operation: z.string(),
  /** `ok`, `pending` (an upstream call still running or cut short), an error code; null on rows handlers wrote. */
  outcome: z.string().nullable(),
  targets: z.array(z.object({ type: z.string().nullable(), id: z.string() })),
  input: z.unknown(),
  before: z.unknown(),
  after: z.unknown(),
  details: z.unknown(),
  requestId: z.string().nullable(),
  ip: z.string().nullable(),
});

/** Operators, their roles, and the audit trail the registry writes (issue 30). */
export const operatorOperations = [
  defineOperation({
    name: 'adminListOperators',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'GET',
    purpose: 'list the operators: their roles (granted, or admin through ADMIN_EMAILS) and second factors',
    input: z.object({}),
    output: z.object({ items: z.array(operatorOutput) }),
    handler: async (_i, ctx) => ({ items: await ctx.api.operators.list() }),
  }),
  defineOperation({
    name: 'adminGrantRole',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    gates: { stepUp: true },
    announce: true,
    purpose:
      'give an operator role (admin, finance or support) by e-mail: to the account, or, with no account yet, a 7-day invitation e-mailed to the address that its first sign-in accepts',
    input: z.object({ email: z.email('Give a valid e-mail address').max(254), role }),
    /** `operator` when the account exists (the role is granted), else `invitation`. */
    output: z.object({ operator: operatorOutput.nullable(), invitation: invitationOutput.nullable() }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (i, ctx) => {
      const granted = await ctx.api.operators.grant(ctx.user, i.email, i.role);
      if (granted.invitation) {
        ctx.audit.target('invitation', granted.invitation.id);
        ctx.audit.change(null, { invitation: granted.invitation });
        return { operator: null, invitation: granted.invitation };
      }
      const { before, after } = granted;
      ctx.audit.target('user', after.userId);
      ctx.audit.change({ roles: before.roles }, { roles: after.roles });
      // This instance forgets the account's cached session now; the others hear the row's auth_changed notice.
      ctx.api.identity.forgetUser(after.userId);
      return { operator: after, invitation: null };
    },
  }),
  defineOperation({
    name: 'adminListInvitations',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'GET',
    purpose: 'list the pending operator invitations that have not expired (e-mail, role, who invited, when it expires)',
    input: z.object({}),
    output: z.object({ items: z.array(invitationOutput) }),
    handler: async (_i, ctx) => ({ items: await ctx.api.operators.invitations() }),
  }),
  defineOperation({
    name: 'adminRevokeInvitation',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    gates: { stepUp: true },
    announce: true,
    purpose: 'revoke a pending operator invitation: its e-mail signs in without the role',
    input: z.object({ id: uuidInput('id') }),
    output: z.object({ invitation: invitationOutput }),
    errors: ['NOT_FOUND'],
    handler: async (i, ctx) => {
      ctx.audit.target('invitation', i.id);
      const invitation = await ctx.api.operators.revokeInvitation(i.id);
      ctx.audit.change({ invitation }, { invitation: null });
      return { invitation };
    },
  }),
  defineOperation({
    name: 'adminRevokeRole',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    gates: { stepUp: true },
    announce: true,
    purpose: 'take a granted operator role back (never the last admin, nor an ADMIN_EMAILS admin)',
    input: z.object({ userId: uuidInput('userId'), role }),
    output: z.object({ operator: operatorOutput }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (i, ctx) => {
      ctx.audit.target('user', i.userId);
      const { before, after } = await ctx.api.operators.revoke(i.userId, i.role);
      ctx.audit.change({ roles: before.roles }, { roles: after.roles });
      // This instance forgets the account's cached session now; the others hear the row's auth_changed notice.
      ctx.api.identity.forgetUser(after.userId);
      return { operator: after };
    },
  }),
  defineOperation({
    name: 'adminSearchAudit',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'GET',
    purpose:
      'search the audit trail (one row per operator call) by operator, operation, target, plain words or a reference, and time, newest first',
    input: z.object({
      operatorId: uuidInput('operatorId').optional(),
      operation: z.string().min(1).max(100).optional(),
      targetId: z.string().min(1).max(200).optional(),
      words: z.string().trim().min(1).max(200).optional().meta({
        description:
          'plain words or a reference, each found in the operation name, its targets, its input or its outcome ("approve", a reference)',
      }),
      from: instant('from').optional(),
      to: instant('to').optional(),
      limit: z.coerce
        .number({ error: 'limit must be a number' })
        .int()
        .min(1)
        .default(50)
        .transform((n) => Math.min(n, 100)),
      cursor: z.string().max(300).optional(),
    }),
    output: z.object({ items: z.array(auditItem), nextCursor: z.string().nullable() }),
    handler: async (i, ctx) => searchAudit(ctx.api.db, i),
  }),
];
