import { ApiError, NetworkError, post, type PostInput, type PostPath } from '../../api/client';
import { waitOrOnline } from '../../app/online';
import type { PurchaseTx } from './purchase-state';

export type PurchaseRequest =
  | { service: 'airtime'; network: string; phone: string; amount: number; ported?: boolean }
  | { service: 'data'; network: string; phone: string; plan_id: string; amount: number; ported?: boolean }
  | { service: 'cable'; identifier: string; iuc: string; plan_id: string; amount: number; phone: string }
  | { service: 'electricity'; plan: string; meter: string; type: string; amount: number; phone: string }
  | { service: 'betting'; betting_company: string; customer_id: string; amount: number }
  | { service: 'exam'; exam: string; quantity: number; phone: string; amount: number; profile_id?: string }
  | KindPurchase;

/**
 * A purchase of a kind with its own screen (features/buy/kinds/<kind>): the operation it is sent to, its
 * fields without the PIN and the amount (the price confirmed), typed by the operation's input. `service` names it for
 * the screens (the kind's service key).
 */
export type KindPurchase = {
  [P in PostPath]: PostInput<P> extends { pin: string; amount: number }
    ? { service: string; operation: P; fields: Omit<PostInput<P>, 'pin' | 'amount'>; amount: number }
    : never;
}[PostPath];

type Body<S extends PurchaseRequest['service']> = Omit<Extract<PurchaseRequest, { service: S }>, 'service'> & { pin: string };

function send(req: PurchaseRequest, pin: string, key: string): Promise<{ transaction: PurchaseTx }> {
  const opts = { idempotencyKey: key };
  if ('operation' in req)
    return post(req.operation, { ...req.fields, amount: req.amount, pin } as PostInput<typeof req.operation>, opts) as Promise<{
      transaction: PurchaseTx;
    }>;
  const { service, ...rest } = req;
  const body = { ...rest, pin };
  switch (service) {
    case 'airtime':
      return post('/_serverFn/buyAirtimeBearerVTU', body as Body<'airtime'>, opts);
    case 'data':
      return post('/_serverFn/buyDataBearerVTU', body as Body<'data'>, opts);
    case 'cable':
      return post('/_serverFn/subscribeCableBearerVTU', body as Body<'cable'>, opts);
    case 'electricity':
      return post('/_serverFn/buyElectricityBearerVTU', body as Body<'electricity'>, opts);
    case 'betting':
      return post('/_serverFn/fundBetBearerVTU', body as Body<'betting'>, opts);
    case 'exam':
      return post('/_serverFn/buyEducationPinBearerVTU', body as Body<'exam'>, opts);
  }
}

/**
 * Sends one purchase under its Idempotency-Key. When the answer is lost (no connection, or the service still
 * working on the key), it sends the same request with the same key again: the service either replays what it did
 * or does it once. It never reports a lost answer as a failure. `onChecking` tells the screen it is re-checking.
 */
export async function buyOnce(req: PurchaseRequest, pin: string, key: string, onChecking: () => void): Promise<PurchaseTx> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await send(req, pin, key)).transaction;
    } catch (err) {
      const unknownOutcome =
        err instanceof NetworkError || (err instanceof ApiError && (err.code === 'IDEMPOTENCY_IN_PROGRESS' || err.status >= 500));
      if (!unknownOutcome) throw err;
      onChecking();
      // Sent again a moment later, or as soon as the connection is back.
      await waitOrOnline(Math.min(2000 * (attempt + 1), 10_000));
    }
  }
}
