import { z } from 'zod';
import { uuidInput } from '../../kernel/inputs.js';

/** votePoll's input, shared with the app's poll card (web/src/api/schemas.ts): imports only zod and the kernel. */
export const pollVoteInput = z.object({ pollId: uuidInput('pollId'), optionId: uuidInput('optionId') });

/**
 * A message template's subject and body (adminPreviewMessageTemplate, adminSaveMessageTemplate), shared with the
 * console's template editor (web/src/api/schemas.ts). An SMS has no subject.
 */
export const templateSubjectInput = z.string().trim().max(200, 'subject must be at most 200 characters').nullable().optional();
export const templateBodyInput = z
  .string({ error: 'body is required' })
  .trim()
  .min(1, 'body must not be empty')
  .max(2000, 'body must be at most 2000 characters');
