import { z } from 'zod';
import { uuidInput } from '../../kernel/inputs.js';

/** votePoll's input, shared with the app's poll card (web/src/api/schemas.ts): imports only zod and the kernel. */
export const pollVoteInput = z.object({ pollId: uuidInput('pollId'), optionId: uuidInput('optionId') });
