import { createECDH } from 'node:crypto';
import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { queryBool, uuidInput } from '../../kernel/inputs.js';
import { DEAD_LETTER_SORTS } from './dead-letters.js';
import { NOTIFICATION_KINDS } from './kinds.js';
import { pollVoteInput } from './inputs.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['notifications', 'push']);

// docs/design.md §12: {id, kind, title, body, read, createdAt}; data carries the emitter's references (e.g. a transaction id).
export const notificationOutput = z
  .object({
    id: z.string(),
    kind: z
      .enum(NOTIFICATION_KINDS)
      .meta({ description: 'what happened (a closed list), for a client that words the notification itself' }),
    params: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .meta({ description: 'the facts the kind is worded from (amount, recipient, service, …); title and body stay in English' }),
    title: z.string(),
    body: z.string(),
    read: z.boolean(),
    createdAt: z.string(),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'Notification' });

const pollOptionOutput = z.object({ id: z.string(), label: z.string(), votes: z.number().optional() }).meta({ id: 'PollOption' });
/** Counts appear only after the caller has voted (results shown after voting). */
const pollOutput = z
  .object({
    id: z.string(),
    question: z.string(),
    myVote: z.string().nullable(),
    totalVotes: z.number().optional(),
    options: z.array(pollOptionOutput),
  })
  .meta({ id: 'Poll' });

const broadcastOutput = z
  .object({
    id: z.string(),
    title: z.string(),
    body: z.string(),
    startsAt: z.string(),
    endsAt: z.string().nullable(),
    poll: pollOutput.nullable(),
  })
  .meta({ id: 'Broadcast' });

const audienceSchema = z
  .object({
    minKycTier: z
      .number()
      .int('minKycTier must be a whole number')
      .min(0, 'minKycTier must be 0-3')
      .max(3, 'minKycTier must be 0-3')
      .optional(),
    joinedAfter: z.iso.datetime({ offset: true, message: 'joinedAfter must be an ISO date-time' }).optional(),
    joinedBefore: z.iso.datetime({ offset: true, message: 'joinedBefore must be an ISO date-time' }).optional(),
  })
  .strict()
  .refine((a) => !a.joinedAfter || !a.joinedBefore || new Date(a.joinedAfter) < new Date(a.joinedBefore), {
    message: 'joinedAfter must be before joinedBefore',
    path: ['joinedBefore'],
  });

const adminBroadcastOutput = z
  .object({
    id: z.string(),
    title: z.string(),
    body: z.string(),
    audience: z.object({ minKycTier: z.number().optional(), joinedAfter: z.string().optional(), joinedBefore: z.string().optional() }),
    status: z.enum(['scheduled', 'active', 'ended']),
    startsAt: z.string(),
    endsAt: z.string().nullable(),
    endedAt: z.string().nullable(),
    createdAt: z.string(),
    poll: z
      .object({
        id: z.string(),
        question: z.string(),
        totalVotes: z.number(),
        options: z.array(z.object({ id: z.string(), label: z.string(), votes: z.number() })),
      })
      .nullable(),
  })
  .meta({ id: 'AdminBroadcast' });

// PostgreSQL text cannot hold NUL, and other control characters have no place in a message users read.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

const text = (name: string, max: number) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} must not be empty`)
    .max(max, `${name} must be at most ${max} characters`)
    .refine((v) => !CONTROL.test(v), `${name} must not contain control characters`);

const dateTime = (name: string) =>
  z.iso.datetime({ offset: true, message: `${name} must be an ISO date-time like 2026-01-31T09:00:00Z` }).transform((s) => new Date(s));

/** A broadcast as an operator writes it (adminCreateBroadcast, and its preview). */
const broadcastInput = z.object({
  title: text('title', 120),
  body: text('body', 2000),
  audience: audienceSchema.default({}),
  startsAt: dateTime('startsAt').optional(),
  endsAt: dateTime('endsAt').optional(),
  poll: z
    .object({
      question: text('question', 200).optional(),
      options: z
        .array(text('option', 100), { error: 'options must be a list of labels' })
        .min(2, 'a poll needs at least 2 options')
        .max(10, 'a poll has at most 10 options')
        .refine((o) => new Set(o.map((x) => x.toLowerCase())).size === o.length, 'poll options must be different'),
    })
    .strict()
    .optional(),
});

function base64urlBytes(v: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(v)) return null;
  return Buffer.from(v.replace(/=+$/, ''), 'base64url');
}

// Browsers send keys base64url-encoded (PushSubscription.toJSON()); RFC 8291 fixes their sizes.
const p256dhInput = z
  .string({ error: 'p256dh is required' })
  .max(200, 'p256dh is too long')
  .refine((v) => {
    const b = base64urlBytes(v);
    if (!b || b.length !== 65 || b[0] !== 0x04) return false;
    try {
      // Rejects bytes that are not a point on P-256: encryption to such a key could never be decrypted.
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      ecdh.computeSecret(b);
      return true;
    } catch {
      return false;
    }
  }, 'p256dh must be a base64url uncompressed P-256 public key (65 bytes starting with 0x04)')
  .transform((v) => v.replace(/=+$/, ''));

const authInput = z
  .string({ error: 'auth is required' })
  .max(64, 'auth is too long')
  .refine((v) => base64urlBytes(v)?.length === 16, 'auth must be a base64url 16-byte secret')
  .transform((v) => v.replace(/=+$/, ''));

const endpointInput = z
  .string({ error: 'endpoint is required' })
  .trim()
  .min(1, 'endpoint is required')
  .max(2048, 'endpoint must be at most 2048 characters')
  .refine((v) => !CONTROL.test(v), 'endpoint must not contain control characters');

export const notificationsOperations = [
  defineOperation({
    name: 'listNotifications',
    suffix: 'BearerNotifications',
    method: 'GET',
    versioned: true,
    purpose: "caller's inbox, newest first, with the unread count",
    input: z.object({ ...pageInput, unreadOnly: queryBool.optional() }),
    output: pageOutput(notificationOutput).extend({ unread: z.number() }),
    handler: async (input, ctx) => ctx.api.notifications.list(ctx.user.id, input),
  }),
  defineOperation({
    name: 'markAllNotificationsRead',
    suffix: 'BearerNotifications',
    method: 'POST',
    purpose: 'mark all as read',
    input: z.object({}),
    output: z.object({ marked: z.number(), unread: z.number() }),
    handler: async (_input, ctx) => ctx.api.notifications.markAllRead(ctx.user.id),
  }),
  defineOperation({
    name: 'markNotificationRead',
    suffix: 'BearerNotifications',
    method: 'POST',
    purpose: 'mark one as read',
    input: z.object({ id: uuidInput('id') }),
    output: z.object({ notification: notificationOutput, unread: z.number() }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.notifications.markRead(ctx.user.id, input.id),
  }),
  defineOperation({
    name: 'listBroadcasts',
    suffix: 'BearerNotifications',
    method: 'GET',
    purpose: 'list active broadcasts addressed to the caller',
    input: z.object({ ...pageInput }),
    output: pageOutput(broadcastOutput),
    handler: async (input, ctx) => ctx.api.notifications.listBroadcasts(ctx.user.id, input),
  }),
  defineOperation({
    name: 'votePoll',
    suffix: 'BearerNotifications',
    method: 'POST',
    purpose: 'vote in a broadcast poll (once); answers with the results',
    input: pollVoteInput,
    output: z.object({ poll: pollOutput }),
    errors: ['NOT_FOUND', 'ALREADY_VOTED'],
    handler: async (input, ctx) => ctx.api.notifications.votePoll(ctx.user.id, input.pollId, input.optionId),
  }),
  defineOperation({
    name: 'getPushPublicKey',
    suffix: 'PublicPush',
    method: 'GET',
    purpose: 'VAPID public key for web push (applicationServerKey)',
    input: z.object({}),
    output: z.object({ publicKey: z.string() }),
    cacheSeconds: 3600,
    handler: async (_input, ctx) => ({ publicKey: ctx.api.push.publicKey }),
  }),
  defineOperation({
    name: 'savePushSubscription',
    suffix: 'BearerPush',
    method: 'POST',
    purpose: 'register a push endpoint',
    input: z.object({ endpoint: endpointInput, p256dh: p256dhInput, auth: authInput }),
    output: z.object({ subscription: z.object({ id: z.string(), endpoint: z.string(), createdAt: z.string() }) }),
    errors: ['CONFLICT'],
    handler: async (input, ctx) => ctx.api.notifications.savePushSubscription(ctx.user, input),
  }),
  defineOperation({
    name: 'deletePushSubscription',
    suffix: 'BearerPush',
    method: 'POST',
    purpose: 'delete a push endpoint',
    input: z.object({ endpoint: endpointInput }),
    output: z.object({ deleted: z.boolean() }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.notifications.deletePushSubscription(ctx.user.id, input.endpoint),
  }),

  // ---- operators (docs/design.md §12: BearerAdmin, names start with admin) ----
  defineOperation({
    name: 'adminCreateBroadcast',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'POST',
    stepUpExempt: 'sends a message to customers; it moves no money and changes no authority',
    purpose: 'create (or schedule) a broadcast, optionally with a poll',
    input: broadcastInput,
    output: z.object({ broadcast: adminBroadcastOutput }),
    handler: async (input, ctx) => ctx.api.notifications.adminCreateBroadcast(ctx.user.id, input),
  }),
  defineOperation({
    name: 'adminPreviewBroadcast',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'POST',
    stepUpExempt: 'a read: shows what a broadcast would send and to how many, and changes nothing',
    purpose: 'what a broadcast would do before it is created: the message as customers see it, the audience count, when it starts',
    input: broadcastInput,
    output: z.object({
      message: z.object({
        title: z.string(),
        body: z.string(),
        poll: z.object({ question: z.string(), options: z.array(z.string()) }).nullable(),
      }),
      audienceCount: z.number().int().describe('accounts in the audience now (the same conditions as the inbox)'),
      startsAt: z.string(),
      scheduled: z.boolean().describe('true when it starts later than now'),
      endsAt: z.string().nullable(),
    }),
    handler: async (input, ctx) => ctx.api.notifications.adminPreviewBroadcast(input),
  }),
  defineOperation({
    name: 'adminEndBroadcast',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'POST',
    stepUpExempt: 'ends a message to customers; it moves no money and changes no authority',
    purpose: 'end a broadcast now (it disappears from listBroadcasts and its poll closes)',
    input: z.object({ id: uuidInput('id') }),
    output: z.object({ broadcast: adminBroadcastOutput }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.notifications.adminEndBroadcast(input.id),
  }),
  defineOperation({
    name: 'adminListBroadcasts',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'GET',
    purpose: 'every broadcast, newest first, with poll results',
    input: z.object({
      ...pageInput,
      status: z.enum(['scheduled', 'active', 'ended'], { error: 'status must be scheduled, active or ended' }).optional(),
    }),
    output: pageOutput(adminBroadcastOutput),
    handler: async (input, ctx) => ctx.api.notifications.adminListBroadcasts(input),
  }),
  defineOperation({
    name: 'adminGetPollResults',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'GET',
    purpose: 'vote counts of a poll',
    input: z.object({ pollId: uuidInput('pollId') }),
    output: z.object({
      poll: z.object({
        id: z.string(),
        broadcastId: z.string(),
        question: z.string(),
        totalVotes: z.number(),
        options: z.array(z.object({ id: z.string(), label: z.string(), votes: z.number() })),
      }),
    }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.notifications.adminGetPollResults(input.pollId),
  }),
  defineOperation({
    name: 'adminListDeadLetters',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'GET',
    purpose:
      "jobs that failed every retry: e-mail, SMS and push deliveries, any other queue's as channel job; last failed first, first failed first or most attempts first",
    input: z.object({
      ...pageInput,
      channel: z.enum(['email', 'sms', 'push', 'job'], { error: 'channel must be email, sms, push or job' }).optional(),
      sort: z.enum(DEAD_LETTER_SORTS, { error: 'sort must be newest, oldest or attempts' }).default('newest'),
    }),
    output: pageOutput(
      z.object({
        id: z.string(),
        channel: z.enum(['email', 'sms', 'push', 'job']),
        recipient: z.string(),
        subject: z.string().nullable(),
        attempts: z.number(),
        lastError: z.string().nullable(),
        createdAt: z.string(),
        failedAt: z.string(),
      }),
    ),
    handler: async (input, ctx) => ctx.api.notifications.adminListDeadLetters(input),
  }),
  defineOperation({
    name: 'adminRetryDeadLetter',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    stepUpExempt: 'runs again a job whose effect was authorised when it was enqueued',
    purpose: "send a dead-lettered e-mail, SMS or push delivery again (fresh attempts); another queue's dead job is not found",
    input: z.object({ id: z.string({ error: 'id is required' }).regex(/^\d{1,19}$/, 'id must be a dead letter id') }),
    output: z.object({ requeued: z.boolean() }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.notifications.adminRetryDeadLetter(input.id),
  }),
];
