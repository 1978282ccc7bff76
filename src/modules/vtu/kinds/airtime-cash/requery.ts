import type { Db } from '../../../../db/client.js';
import type { AirtimeCashProvider } from './adapter.js';
import type { AirtimeCashUseDeps } from './deps.js';
import * as repo from './repository.js';
import type { AirtimeCashRow } from './repository.js';

/** The adapter of the provider a request was sent to (rows are written only for providers with one). */
export function adapterOf({ providers }: Pick<AirtimeCashUseDeps, 'providers'>, provider: string): AirtimeCashProvider {
  const adapter = (providers as Partial<Record<string, AirtimeCashProvider>>)[provider];
  if (!adapter) throw new Error(`no airtime-to-cash adapter for provider ${provider}`);
  return adapter;
}

/** Asks the request's provider and applies its answer; returns the provider's status as recorded. */
export async function requeryRow(deps: AirtimeCashUseDeps, row: AirtimeCashRow): Promise<string> {
  return deps.apply(row, await adapterOf(deps, row.provider).requery(row.request_id));
}

/** A request by id that is known to exist. */
export const mustGet = async (db: Db, id: string) => (await repo.getRequest(db, id))!;
