import { nairaText, type UssdTexts } from './texts.js';

/** What a USSD caller is buying, chosen answer by answer (menu.ts), and the purchase input it becomes. */
export interface Order {
  kind: 'airtime' | 'data' | 'electricity' | 'cable';
  network?: string;
  phone?: string;
  /** Naira: the airtime or electricity amount chosen, or the plan's price. */
  amount?: number;
  planId?: string;
  planName?: string;
  disco?: string;
  meter?: string;
  meterType?: 'prepaid' | 'postpaid';
  identifier?: string;
  iuc?: string;
  /** What the wallet pays (the quote), shown before the PIN. */
  total?: number;
}

/** The amounts a caller may type (the app's own bounds: vtu's airtime and electricity inputs). */
export const AIRTIME_RANGE = [50, 50_000] as const;
export const ELECTRICITY_RANGE = [1000, 500_000] as const;

/** One line saying what is bought, for the confirmation, the result and the SMS. */
export function orderSummary(o: Order, t: UssdTexts): string {
  switch (o.kind) {
    case 'airtime':
      return `${t.menu[1]} ${nairaText(o.amount!)} ${o.phone}`;
    case 'data':
      return `${o.planName} ${o.phone}`;
    case 'electricity':
      return `${o.disco} ${o.meterType} ${o.meter} ${nairaText(o.amount!)}`;
    case 'cable':
      return `${o.planName} ${o.iuc}`;
  }
}

/** The vtu purchase operation's input for the order (without the PIN), the service kind's name with it. */
export function purchaseOf(o: Order, ownPhone: string): { kind: string; input: Record<string, unknown> } {
  switch (o.kind) {
    case 'airtime':
      return { kind: 'airtime', input: { network: o.network, phone: o.phone, amount: o.amount, ported: false } };
    case 'data':
      return { kind: 'data', input: { network: o.network, plan_id: o.planId, phone: o.phone, amount: o.amount, ported: false } };
    case 'electricity':
      return { kind: 'electricity', input: { plan: o.disco, meter: o.meter, type: o.meterType, amount: o.amount, phone: ownPhone } };
    case 'cable':
      return { kind: 'cable', input: { identifier: o.identifier, iuc: o.iuc, plan_id: o.planId, amount: o.amount, phone: ownPhone } };
  }
}

/** quotePurchase's input for the order. */
export function quoteOf(o: Order) {
  switch (o.kind) {
    case 'airtime':
      return { service: 'airtime', amount: o.amount, network: o.network };
    case 'data':
      return { service: 'data', network: o.network, plan_id: o.planId };
    case 'electricity':
      return { service: 'electricity', amount: o.amount };
    case 'cable':
      return { service: 'cable', identifier: o.identifier, plan_id: o.planId };
  }
}
