/**
 * The purchase screen's states. The rule that matters: an attempt whose answer was lost is never
 * shown as failed. It goes to `checking`, and the same request is sent again under the same Idempotency-Key until
 * the service answers (a replay of what it did, or the purchase's first answer).
 */
export interface PurchaseTx {
  id: string;
  reference: string;
  status: 'processing' | 'success' | 'failed';
  amount: number;
  token?: string;
  failureReason?: string;
}

export type PurchaseState =
  | { phase: 'edit' }
  | { phase: 'confirm'; price: number }
  | { phase: 'submitting'; price: number }
  | { phase: 'checking'; price: number; attempts: number }
  | { phase: 'priceChanged'; price: number }
  | { phase: 'refused'; price: number; code: string; message: string }
  | { phase: 'done'; tx: PurchaseTx };

export type PurchaseEvent =
  | { type: 'review'; price: number }
  | { type: 'submit' }
  | { type: 'answered'; tx: PurchaseTx }
  | { type: 'connectionLost' }
  | { type: 'refused'; code: string; message: string; newPrice?: number }
  | { type: 'edit' };

export function purchaseReducer(state: PurchaseState, event: PurchaseEvent): PurchaseState {
  switch (event.type) {
    case 'review':
      return { phase: 'confirm', price: event.price };
    case 'submit':
      if (state.phase === 'confirm' || state.phase === 'priceChanged' || state.phase === 'refused')
        return { phase: 'submitting', price: state.price };
      return state;
    case 'answered':
      return { phase: 'done', tx: event.tx };
    case 'connectionLost':
      if (state.phase === 'submitting') return { phase: 'checking', price: state.price, attempts: 1 };
      if (state.phase === 'checking') return { ...state, attempts: state.attempts + 1 };
      return state;
    case 'refused':
      if (state.phase !== 'submitting' && state.phase !== 'checking') return state;
      // A refusal is definite: nothing was taken. A new price asks again before any debit.
      if (event.code === 'PRICE_CHANGED' && event.newPrice !== undefined) return { phase: 'priceChanged', price: event.newPrice };
      return { phase: 'refused', price: state.price, code: event.code, message: event.message };
    case 'edit':
      return { phase: 'edit' };
  }
}

/** Whether a purchase is settled (success, or failed and refunded); processing ones are polled. */
export const settled = (tx: PurchaseTx) => tx.status !== 'processing';
