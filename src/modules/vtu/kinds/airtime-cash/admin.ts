import { AppError, notFound } from '../../../../kernel/errors.js';
import type { AirtimeCashUseDeps } from './deps.js';
import * as repo from './repository.js';
import type { AirtimeCashStatus } from './repository.js';
import { mustGet, requeryRow } from './requery.js';
import { airtimeCashView, iso } from './view.js';

/** The requests as operators list them (the stuck ones: awaiting past their expiry), with the provider's side. */
export async function adminList(
  { db, clock }: AirtimeCashUseDeps,
  f: { status?: AirtimeCashStatus; stuck?: boolean; limit: number; offset: number },
) {
  const list = await repo.listRequests(db, {
    status: f.status,
    stuckBefore: f.stuck ? clock.now() : undefined,
    limit: f.limit,
    offset: f.offset,
  });
  return {
    items: list.slice(0, f.limit).map((r) => ({
      ...airtimeCashView(r),
      userId: r.user_id,
      requestId: r.request_id,
      requeryCount: r.requery_count,
      lastProviderStatus: r.last_provider_status,
      lastCheckedAt: iso(r.last_checked_at),
    })),
    limit: f.limit,
    offset: f.offset,
    hasMore: list.length > f.limit,
  };
}

/** An operator's requery: an awaiting request's provider is asked now; another request shows its last status. */
export async function adminRequery(deps: AirtimeCashUseDeps, id: string) {
  const { db } = deps;
  const row = await repo.getRequest(db, id);
  if (!row) throw notFound('Airtime-to-cash request');
  const providerStatus = row.status === 'awaiting' ? await requeryRow(deps, row) : (row.last_provider_status ?? row.status);
  return { request: airtimeCashView(await mustGet(db, id)), providerStatus };
}

/**
 * An operator closes an awaiting request with nothing credited (the provider confirmed out of band that nothing
 * arrived). Crediting always needs the provider's own confirmation (webhook or requery), never an operator's word.
 */
export async function adminResolve({ db, close }: AirtimeCashUseDeps, id: string, note: string) {
  const row = await repo.getRequest(db, id);
  if (!row) throw notFound('Airtime-to-cash request');
  if (row.status !== 'awaiting') throw new AppError('CONFLICT', `This request is already ${row.status}`);
  await close(row, 'expired', `closed by an operator: ${note}`, row.last_provider_status ?? 'operator');
  const after = await mustGet(db, id);
  if (after.status === 'awaiting') throw new AppError('CONFLICT', 'The request changed meanwhile; look again');
  return { request: airtimeCashView(after) };
}
