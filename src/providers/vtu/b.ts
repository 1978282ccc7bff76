import type { HttpProviderConfig } from './c.js';
import { createSmeDataProvider } from './sme-data.js';

/** Provider B: data fallback after a definite failure at A (spec rule 2), SME-data protocol. */
export const createProviderB = (cfg: HttpProviderConfig) => createSmeDataProvider('b', cfg);
