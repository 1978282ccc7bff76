import type { InboundKind } from '../kind.js';
import { AIRTIME_CASH_DEFAULT_ROUTING, AIRTIME_CASH_PROVIDERS, AIRTIME_CASH_ROUTING_KEY } from './routing.js';

/**
 * Airtime-to-cash among the inbound kinds (../index.ts, INBOUND_KINDS): its routing key and providers (checked at
 * start), and its simulator. No module code here: the configuration reads it before anything is built.
 */
export const airtimeCashInbound: InboundKind = {
  name: AIRTIME_CASH_ROUTING_KEY,
  label: 'airtime-to-cash',
  providers: AIRTIME_CASH_PROVIDERS,
  defaultRouting: AIRTIME_CASH_DEFAULT_ROUTING,
  aliases: ['airtimeCash', 'airtime-cash'],
  simulator: () => import('./simulator.js').then((m) => m.airtimeCashSimulator),
};
