import { z } from 'zod';

/** closeAccount's input, shared with the app's close-account form (web/src/api/schemas.ts): imports only zod and the kernel. */
export const closeAccountInput = z.object({ confirm: z.literal('DELETE', { error: 'confirm must be the literal "DELETE"' }) });
