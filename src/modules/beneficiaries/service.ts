import { sql } from 'drizzle-orm';
import type { Change } from '../../platform/change.js';
import { list } from './list.js';
import type { BeneficiaryDeps, BeneficiaryInput, BeneficiaryKind } from './model.js';
import { remove, rename, save } from './save.js';

// The limits, kinds and shapes live in model.ts; importers keep using this module.
export * from './model.js';

export type BeneficiaryService = ReturnType<typeof createBeneficiaryService>;

/** Saved beneficiaries (model.ts): listing, saving, renaming and removing them, and their end with the account. */
export function createBeneficiaryService(deps: BeneficiaryDeps) {
  return {
    list: (userId: string, kind?: BeneficiaryKind) => list(deps, userId, kind),
    save: (userId: string, input: BeneficiaryInput) => save(deps, userId, input),
    rename: (userId: string, id: string, label: string) => rename(deps, userId, id, label),
    remove: (userId: string, id: string) => remove(deps, userId, id),

    /**
     * account.closed: saved numbers are personal data with no money record to keep; the user's saved numbers go with
     * the closure's statement.
     */
    forgetOnClosure(change: Change, userId: string): void {
      change.write((each) => sql`DELETE FROM beneficiaries WHERE user_id = ${userId}::uuid AND EXISTS (SELECT 1 FROM ${each})`);
    },
  };
}
