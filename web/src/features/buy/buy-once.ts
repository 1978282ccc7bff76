import { ApiError, NetworkError, post, type PostInput } from '../../api/client';
import type { PurchaseTx } from './purchase-state';

export type PurchaseRequest =
  | { service: 'airtime'; network: string; phone: string; amount: number; ported?: boolean }
  | { service: 'data'; network: string; phone: string; plan_id: string; amount: number; ported?: boolean }
  | { service: 'cable'; identifier: string; iuc: string; plan_id: string; amount: number; phone: string }
  | { service: 'electricity'; plan: string; meter: string; type: string; amount: number; phone: string }
  | { service: 'betting'; betting_company: string; customer_id: string; amount: number }
  | { service: 'exam'; exam: string; quantity: number; phone: string; amount: number; profile_id?: string }
  | { service: 'esim'; destination?: string; plan_id: string; phone: string; amount: number }
  | { service: 'esimTopUp'; esim_id: string; plan_id: string; amount: number }
  | { service: 'social'; service_id: string; link: string; quantity: number; amount: number }
  | { service: 'flights'; offer_id: string; passengers: FlightTraveller[]; email: string; phone: string; amount: number };

type FlightTraveller = PostInput<'/_serverFn/bookFlightBearerVTU'>['passengers'][number];

type Body<S extends PurchaseRequest['service']> = Omit<Extract<PurchaseRequest, { service: S }>, 'service'> & { pin: string };

function send(req: PurchaseRequest, pin: string, key: string) {
  const opts = { idempotencyKey: key };
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
    case 'esim':
      return post('/_serverFn/buyEsimBearerVTU', body as Body<'esim'>, opts);
    case 'esimTopUp':
      return post('/_serverFn/topUpEsimBearerVTU', body as Body<'esimTopUp'>, opts);
    case 'social':
      return post('/_serverFn/orderSocialBearerVTU', body as Body<'social'>, opts);
    case 'flights':
      return post('/_serverFn/bookFlightBearerVTU', body as Body<'flights'>, opts);
  }
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
      await wait(Math.min(2000 * (attempt + 1), 10_000));
    }
  }
}
