import { z } from 'zod';

/**
 * A support message's body (sendSupportMessage, the operators' reply), shared with the app's chat form
 * (web/src/api/schemas.ts): this file imports only zod and the kernel.
 */
export const MESSAGE_MAX = 4000;

export const messageBodyInput = z
  .string({ error: 'body is required' })
  .trim()
  .min(1, 'body must not be empty')
  .max(MESSAGE_MAX, `body must be at most ${MESSAGE_MAX} characters`);

/**
 * adminListSupportThreads' orders, each a fixed ORDER BY in the service: latest activity first (the default),
 * longest waiting first (oldest activity), or by when the thread was opened.
 */
export const THREAD_SORTS = ['recent', 'waiting', 'newest', 'oldest'] as const;
export type ThreadSort = (typeof THREAD_SORTS)[number];

/** A saved reply's title and body (adminSaveCannedReply), shared with the console's form. */
export const CANNED_TITLE_MAX = 60;
export const CANNED_BODY_MAX = 2000;

export const cannedTitleInput = z
  .string({ error: 'title is required' })
  .trim()
  .min(1, 'title must not be empty')
  .max(CANNED_TITLE_MAX, `title must be at most ${CANNED_TITLE_MAX} characters`);

export const cannedBodyInput = z
  .string({ error: 'body is required' })
  .trim()
  .min(1, 'body must not be empty')
  .max(CANNED_BODY_MAX, `body must be at most ${CANNED_BODY_MAX} characters`);
