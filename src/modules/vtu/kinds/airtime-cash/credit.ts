import { formatNaira, toNaira } from '../../../../kernel/money.js';
import type { Network } from '../../../../kernel/phone.js';
import type { Entry } from '../../../../ledger/ledger.js';
import { floatAccount, NETWORK_NAMES } from '../../model.js';
import type { ReceiptStatus } from './adapter.js';
import type { AirtimeCashSettlementDeps } from './deps.js';
import * as repo from './repository.js';
import type { AirtimeCashRow } from './repository.js';

/** One credit per provider request: the ledger reference of a request's credit. */
export const ledgerReferenceOf = (requestId: string) => `airtime_cash:${requestId}`;

/** The wallet's share of `kobo` at `bp` basis points, rounded down to the kobo. */
export const creditOf = (kobo: bigint, bp: number) => (kobo * BigInt(bp)) / 10_000n;

/**
 * The provider confirmed receipt: the wallet gets the rate's share of what arrived (at most the amount asked for:
 * more than that waits for an operator), in one statement with the request's new state, the notification and the
 * 'wallet.credited' subscribers' writes. True when this call credited; a second confirmation posts nothing.
 */
export async function credit(
  { clock, log, work }: AirtimeCashSettlementDeps,
  row: AirtimeCashRow,
  r: Extract<ReceiptStatus, { status: 'received' }>,
): Promise<boolean> {
  if (row.status === 'credited') return false;
  const amount = BigInt(row.amount);
  const counted = r.amountReceived < amount ? r.amountReceived : amount;
  const credited = creditOf(counted, row.rate_bp);
  const now = clock.now();
  const state = {
    amountReceived: r.amountReceived,
    credited,
    providerReference: r.providerReference ?? null,
    providerStatus: 'received',
    now,
  };
  const reference = ledgerReferenceOf(row.request_id);
  if (r.amountReceived > amount)
    log.warn(
      { requestId: row.id, reference: row.reference, excess: (r.amountReceived - amount).toString() },
      'airtime-to-cash: more airtime arrived than asked for; the excess needs an operator',
    );
  if (credited <= 0n) {
    // Too little arrived to be worth a kobo: the request is closed as credited with nothing to post.
    await repo.markCredited(work.change(), row.id, state).commit();
    return false;
  }
  // The provider pays our float at its own rate (amount_settled); the difference to the customer's share is revenue.
  const settled = r.settled ?? credited;
  const entries: Entry[] = [{ account: { user: row.user_id, kind: 'wallet' }, amount: credited }];
  if (settled > 0n) entries.push({ account: floatAccount(row.provider), amount: -settled });
  if (settled !== credited) entries.push({ account: { system: 'revenue' }, amount: settled - credited });
  const partial = r.amountReceived < amount;
  const network = NETWORK_NAMES[row.network as Network] ?? row.network;
  const change = work
    .change()
    .post(
      {
        reference,
        type: 'airtime_cash',
        description: `Airtime-to-cash: ${formatNaira(r.amountReceived)} ${network} airtime from ${row.sender}`,
        entries,
        // reference and transactionId: a receipt is found by the request's reference or id (receipts' look-up).
        metadata: {
          reference: row.reference,
          transactionId: row.id,
          provider: row.provider,
          amountReceived: r.amountReceived.toString(),
        },
      },
      { ifPosted: 'skip' },
    )
    .notify({
      userId: row.user_id,
      kind: 'general',
      title: 'Airtime converted',
      body:
        `${formatNaira(credited)} was added to your wallet for the ${formatNaira(r.amountReceived)} ${network} airtime received from ${row.sender}.` +
        (partial ? ` Only ${formatNaira(r.amountReceived)} of the ${formatNaira(amount)} expected arrived.` : ''),
      data: {
        event: partial ? 'airtime_cash_partial' : 'airtime_cash_credited',
        requestId: row.id,
        reference: row.reference,
        network: row.network,
        amount: toNaira(credited),
        received: toNaira(r.amountReceived),
        expected: toNaira(amount),
      },
    })
    .emit('wallet.credited', { userId: row.user_id, amount: credited, source: 'other', reference });
  const { posted } = await repo.markCredited(change, row.id, state).commit();
  if (!posted) return false;
  log.info({ requestId: row.id, reference: row.reference, credited: credited.toString() }, 'airtime-to-cash credited');
  return true;
}
