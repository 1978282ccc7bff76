import { MINUTE } from '../../../../kernel/clock.js';
import { AppError } from '../../../../kernel/errors.js';
import type { ReceiptStatus } from './adapter.js';
import type { AirtimeCashUseDeps } from './deps.js';
import * as repo from './repository.js';
import { adapterOf, requeryRow } from './requery.js';
import type { AirtimeCashProviderId } from './routing.js';

/**
 * A provider's webhook, raw bytes and signature header: UNAUTHENTICATED unless signed with that provider's secret.
 * A request id we never issued, or one sent to another provider, is logged and ignored.
 */
export async function receiveWebhook(deps: AirtimeCashUseDeps, from: AirtimeCashProviderId, raw: Buffer, signature: string | undefined) {
  const v = adapterOf(deps, from).verifyWebhook(raw, signature);
  if (v === 'unsigned') throw new AppError('UNAUTHENTICATED', 'Missing or invalid x-provider-signature');
  if (v === 'malformed') throw new AppError('BAD_REQUEST', 'Body must be a JSON object with request_id and status');
  return confirm(deps, from, v.requestId, v.receipt);
}

/** What a provider says of one of the requests sent to it, as its webhook brings it. */
export async function confirm(
  { db, log, apply }: AirtimeCashUseDeps,
  from: AirtimeCashProviderId,
  requestId: string,
  receipt: ReceiptStatus,
): Promise<{ known: boolean }> {
  const row = await repo.getByRequestId(db, requestId);
  if (!row || row.provider !== from) {
    log.warn({ providerRequestId: requestId, provider: from }, 'airtime-to-cash webhook for a request not sent to this provider');
    return { known: false };
  }
  // A webhook that does not credit or close (awaiting, unreadable) changes nothing: requeries carry on.
  if (receipt.status === 'received' || receipt.status === 'expired' || receipt.status === 'failed') await apply(row, receipt);
  return { known: true };
}

/** Requeries every due awaiting request once; returns how many were checked. */
export async function reconcileDue(deps: AirtimeCashUseDeps, max = 500): Promise<number> {
  const { config, db, clock, log } = deps;
  let done = 0;
  while (done < max) {
    const now = clock.now();
    const batch = await repo.claimDue(db, now, new Date(now.getTime() + Math.max(MINUTE, 3 * config.vtu.timeoutMs)), 16);
    if (!batch.length) break;
    await Promise.all(
      batch.map(async (row) => {
        try {
          await requeryRow(deps, row);
        } catch (err) {
          log.error({ err, requestId: row.id }, 'airtime-to-cash requery failed');
        }
      }),
    );
    done += batch.length;
  }
  return done;
}
