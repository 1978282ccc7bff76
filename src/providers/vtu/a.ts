import type { HttpProviderConfig } from './c.js';
import { createSmeDataProvider } from './sme-data.js';

/** Provider A: first choice for data (spec rule 2), SME-data protocol. */
export const createProviderA = (cfg: HttpProviderConfig) => createSmeDataProvider('a', cfg);
