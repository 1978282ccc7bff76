import { ApiError, NetworkError, post } from '../../api/client';
import type { PurchaseTx } from './purchase-state';

export type PurchaseRequest =
  | { service: 'airtime'; network: string; phone: string; amount: number; ported?: boolean }
  | { service: 'data'; network: string; phone: string; plan_id: string; amount: number; ported?: boolean };

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends one purchase under its Idempotency-Key. When the answer is lost (no connection, or the service still
 * working on the key), it sends the same request with the same key again: the service either replays what it did
 * or does it once. It never reports a lost answer as a failure. `onChecking` tells the screen it is re-checking.
 */
export async function buyOnce(req: PurchaseRequest, pin: string, key: string, onChecking: () => void): Promise<PurchaseTx> {
  for (let attempt = 0; ; attempt++) {
    try {
      const { service, ...body } = req;
      const r =
        service === 'airtime'
          ? await post('/_serverFn/buyAirtimeBearerVTU', { ...(body as Omit<Extract<PurchaseRequest, { service: 'airtime' }>, 'service'>), pin }, { idempotencyKey: key })
          : await post('/_serverFn/buyDataBearerVTU', { ...(body as Omit<Extract<PurchaseRequest, { service: 'data' }>, 'service'>), pin }, { idempotencyKey: key });
      return r.transaction;
    } catch (err) {
      const unknownOutcome = err instanceof NetworkError || (err instanceof ApiError && (err.code === 'IDEMPOTENCY_IN_PROGRESS' || err.status >= 500));
      if (!unknownOutcome) throw err;
      onChecking();
      await wait(Math.min(2000 * (attempt + 1), 10_000));
    }
  }
}
