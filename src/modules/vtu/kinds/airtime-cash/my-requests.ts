import { notFound } from '../../../../kernel/errors.js';
import type { AirtimeCashUseDeps } from './deps.js';
import * as repo from './repository.js';
import type { AirtimeCashStatus } from './repository.js';
import { mustGet, requeryRow } from './requery.js';
import { airtimeCashView } from './view.js';

/** The caller's own requests, newest first, a page at a time (read where the caller's reads go). */
export async function listMine(
  { replica }: AirtimeCashUseDeps,
  userId: string,
  f: { status?: AirtimeCashStatus; limit: number; offset: number },
) {
  const list = await repo.listRequests(replica.forUser(userId), { ...f, userId });
  return { items: list.slice(0, f.limit).map(airtimeCashView), limit: f.limit, offset: f.offset, hasMore: list.length > f.limit };
}

/** One of the caller's own requests (NOT_FOUND for another's). */
export async function getMine({ replica }: AirtimeCashUseDeps, userId: string, id: string) {
  const row = await repo.getOwnRequest(replica.forUser(userId), userId, id);
  if (!row) throw notFound('Airtime-to-cash request');
  return airtimeCashView(row);
}

/** "I have sent it": the provider is asked now; only its answer credits. */
export async function checkMine(deps: AirtimeCashUseDeps, userId: string, id: string) {
  const { db } = deps;
  const row = await repo.getOwnRequest(db, userId, id);
  if (!row) throw notFound('Airtime-to-cash request');
  if (row.status === 'awaiting') await requeryRow(deps, row);
  return airtimeCashView(await mustGet(db, id));
}
