import { notFound } from '../../kernel/errors.js';
import type { PaymentsService } from '../payments/api.js';

/** What a single top-up's verify uses of the payments module (its service, passed in by the module's entry). */
export type TopupVerifier = Pick<PaymentsService, 'adminSearchPayments' | 'verifyProcessorTopup'>;

/**
 * An operator's verify of one top-up (issue 44): its customer is looked up by the reference, then the processor is
 * asked as the customer's own verify asks it. A paid one settles through the same settlement as a webhook's, keyed by
 * the processor's reference, so a second verify, a late webhook or reconciliation never credits it again.
 */
export function createTopupVerify(payments: TopupVerifier) {
  return async function verifyTopup(reference: string) {
    const found = await payments.adminSearchPayments({ kind: 'intents', reference, limit: 1, offset: 0 });
    const userId = found.items[0]?.userId;
    if (typeof userId !== 'string') throw notFound('Top-up');
    return { ...(await payments.verifyProcessorTopup(userId, reference)), userId };
  };
}
