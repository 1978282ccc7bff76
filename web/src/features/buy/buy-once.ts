import { ApiError, NetworkError, type PostInput, type PostPath } from '../../api/client';
import { sendPurchase } from '../../api/purchase';
import { waitOrOnline } from '../../app/online';
import type { PurchaseTx } from './purchase-state';
import * as ops from '../../api/operations';

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

const PATHS = {
  airtime: ops.buyAirtime,
  data: ops.buyData,
  cable: ops.subscribeCable,
  electricity: ops.buyElectricity,
  betting: ops.fundBet,
  exam: ops.buyEducationPin,
} as const satisfies Record<Exclude<PurchaseRequest, KindPurchase>['service'], PostPath>;

/** The operation a purchase is sent to and its input without the PIN (what a passkey confirmation is bound to). */
export function requestOf(req: PurchaseRequest): { path: PostPath; input: Record<string, unknown> } {
  if ('operation' in req) return { path: req.operation, input: { ...req.fields, amount: req.amount } };
  const { service, ...rest } = req;
  return { path: PATHS[service], input: rest };
}

/** How a purchase is confirmed: the transaction PIN, or a passkey's answer to its own challenge (issue 43). */
export type Proof = string | { passkeyAssertion: string };

function send(req: PurchaseRequest, proof: Proof, key: string): Promise<{ transaction: PurchaseTx }> {
  const { path, input } = requestOf(req);
  const call = sendPurchase<{ transaction: PurchaseTx }>;
  if (typeof proof === 'string') return call(path, { ...input, pin: proof }, { idempotencyKey: key });
  return call(path, input, { idempotencyKey: key, passkeyAssertion: proof.passkeyAssertion });
}

/**
 * Sends one purchase under its Idempotency-Key. When the answer is lost (no connection, or the service still
 * working on the key), it sends the same request with the same key again: the service either replays what it did
 * or does it once. It never reports a lost answer as a failure. `onChecking` tells the screen it is re-checking.
 */
export async function buyOnce(req: PurchaseRequest, proof: Proof, key: string, onChecking: () => void): Promise<PurchaseTx> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await send(req, proof, key)).transaction;
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
