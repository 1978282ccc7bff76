import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { queryBool, uuidInput } from '../../kernel/inputs.js';
import { cannedBodyInput, cannedTitleInput, messageBodyInput as bodyInput, THREAD_SORTS } from './inputs.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['support']);

const threadOutput = z
  .object({
    id: z.string(),
    status: z.enum(['open', 'closed']),
    lastMessageAt: z.string().nullable(),
    lastAuthor: z.enum(['user', 'operator']).nullable(),
    closedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'SupportThread' });
const messageOutput = z
  .object({ id: z.string(), threadId: z.string(), author: z.enum(['user', 'operator']), body: z.string(), createdAt: z.string() })
  .meta({ id: 'SupportMessage' });
const cannedOutput = z
  .object({ id: z.string(), title: z.string(), body: z.string(), updatedAt: z.string() })
  .meta({ id: 'SupportCannedReply' });

export const supportOperations = [
  defineOperation({
    name: 'getOrCreateThread',
    suffix: 'BearerSupport',
    method: 'POST',
    purpose: "get or create the caller's open support thread",
    input: z.object({}),
    output: z.object({ thread: threadOutput, created: z.boolean() }),
    handler: async (_input, ctx) => ctx.api.support.getOrCreateThread(ctx.user.id),
  }),
  defineOperation({
    name: 'listThreadMessages',
    suffix: 'BearerSupport',
    method: 'GET',
    purpose: 'list messages of one of the caller’s threads, newest first',
    input: z.object({ threadId: uuidInput('threadId'), ...pageInput }),
    output: pageOutput(messageOutput),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.support.listMyThreadMessages(ctx.user.id, input.threadId, input.limit, input.offset),
  }),
  defineOperation({
    name: 'sendSupportMessage',
    suffix: 'BearerSupport',
    method: 'POST',
    purpose: 'post a support message',
    input: z.object({ threadId: uuidInput('threadId'), body: bodyInput }),
    output: z.object({ message: messageOutput }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => ({ message: await ctx.api.support.send(ctx.user.id, input.threadId, input.body) }),
  }),
  defineOperation({
    name: 'adminListSupportThreads',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'GET',
    purpose:
      'support threads, most recent activity first, longest waiting first, or newest or oldest opened (awaitingReply: last message is from the user)',
    input: z.object({
      status: z.enum(['open', 'closed']).optional(),
      awaitingReply: queryBool.optional(),
      userId: uuidInput('userId').optional(),
      sort: z.enum(THREAD_SORTS, { error: 'sort must be recent, waiting, newest or oldest' }).default('recent'),
      ...pageInput,
    }),
    output: pageOutput(threadOutput.extend({ userId: z.string(), userEmail: z.string() })),
    handler: async (input, ctx) => ctx.api.support.adminListThreads(input),
  }),
  defineOperation({
    name: 'adminListThreadMessages',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'GET',
    purpose: 'messages of any support thread, newest first',
    input: z.object({ threadId: uuidInput('threadId'), ...pageInput }),
    output: pageOutput(messageOutput),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.support.adminThreadMessages(input.threadId, input.limit, input.offset),
  }),
  defineOperation({
    name: 'adminReplySupportThread',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'POST',
    stepUpExempt: 'a support message; it moves no money and changes no authority',
    purpose: 'reply to a support thread (the user is notified)',
    input: z.object({ threadId: uuidInput('threadId'), body: bodyInput }),
    output: z.object({ message: messageOutput }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => ({ message: await ctx.api.support.adminReply(ctx.user.id, input.threadId, input.body) }),
  }),
  defineOperation({
    name: 'adminCloseSupportThread',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'POST',
    stepUpExempt: 'closes a support thread; it moves no money and changes no authority',
    purpose: "close a support thread; the customer's open reports whose reference it names are resolved with it (resolvedReportIds)",
    input: z.object({ threadId: uuidInput('threadId') }),
    output: z.object({ thread: threadOutput.extend({ userId: z.string() }), resolvedReportIds: z.array(z.string()) }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => {
      const done = await ctx.api.support.adminClose(ctx.user.id, input.threadId);
      // One action, one audit row naming the thread and each report it resolved.
      ctx.audit.target('support_thread', done.thread.id);
      for (const id of done.resolvedReportIds) ctx.audit.target('transaction_report', id);
      return done;
    },
  }),
  defineOperation({
    name: 'adminListThreadReports',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'GET',
    purpose: "the transaction reports a support thread is about: its customer's whose reference a message names, newest first",
    input: z.object({ threadId: uuidInput('threadId') }),
    output: z.object({
      items: z.array(z.object({ id: z.string(), reference: z.string(), status: z.enum(['open', 'resolved']), createdAt: z.string() })),
    }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.support.adminThreadReports(input.threadId),
  }),
  defineOperation({
    name: 'adminListCannedReplies',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'GET',
    purpose: 'saved replies, by title ({name} in a body is the customer’s first name, filled in by the console)',
    input: z.object({}),
    output: z.object({ items: z.array(cannedOutput) }),
    handler: async (_input, ctx) => ctx.api.support.adminListCannedReplies(),
  }),
  defineOperation({
    name: 'adminSaveCannedReply',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    stepUpExempt: 'a saved reply text; it moves no money and changes no authority',
    purpose: 'create a saved reply, or edit one by id (titles are unique regardless of case)',
    input: z.object({ id: uuidInput('id').optional(), title: cannedTitleInput, body: cannedBodyInput }),
    output: z.object({ reply: cannedOutput }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => {
      const { reply, before } = await ctx.api.support.adminSaveCannedReply(ctx.user.id, input);
      ctx.audit.target('support_canned_reply', reply.id);
      ctx.audit.change(before && { title: before.title, body: before.body }, { title: reply.title, body: reply.body });
      return { reply };
    },
  }),
  defineOperation({
    name: 'adminDeleteCannedReply',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    stepUpExempt: 'removes a saved reply text; it moves no money and changes no authority',
    purpose: 'delete a saved reply',
    input: z.object({ id: uuidInput('id') }),
    output: z.object({ deleted: z.literal(true) }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => {
      ctx.audit.target('support_canned_reply', input.id);
      const before = await ctx.api.support.adminDeleteCannedReply(input.id);
      ctx.audit.change({ title: before.title, body: before.body }, null);
      return { deleted: true as const };
    },
  }),
];
