import type { ProviderId } from '../../../../providers/vtu/types.js';

/**
 * Airtime-to-cash's routing, read from VTU_ROUTING like the kinds' (its key is `airtime_cash`, the name its ledger
 * postings and wallet activity use; a kind's name is `[a-z][a-z0-9_-]*`). Only a provider with an airtime-to-cash
 * adapter (adapter.ts, AIRTIME_CASH_ADAPTERS) may be named: any other stops the start (config.ts, through the
 * inbound kinds' list in kinds/index.ts and its declaration, kind.ts). This file imports no module code, so the configuration can check the
 * setting before anything is built.
 */
export const AIRTIME_CASH_ROUTING_KEY = 'airtime_cash';

/** The providers with an airtime-to-cash adapter; adapter.ts's AIRTIME_CASH_ADAPTERS is typed by this list. */
export const AIRTIME_CASH_PROVIDERS = ['c'] as const satisfies readonly ProviderId[];
export type AirtimeCashProviderId = (typeof AIRTIME_CASH_PROVIDERS)[number];

/** The routing when VTU_ROUTING does not name airtime_cash. */
export const AIRTIME_CASH_DEFAULT_ROUTING: readonly AirtimeCashProviderId[] = ['c'];

/** Provider `p`'s webhook for airtime-to-cash (http/routes/airtime-cash-webhook.ts serves it; the simulator posts to it). */
export const airtimeCashWebhookPath = (p: AirtimeCashProviderId) => `/api/public/vtu/airtime-cash/webhook/${p}`;

/** Airtime-to-cash's providers in order: VTU_ROUTING's airtime_cash entry (checked at start), else the default. */
export function airtimeCashRouting(routing: Record<string, readonly string[]>): AirtimeCashProviderId[] {
  return [...(routing[AIRTIME_CASH_ROUTING_KEY] ?? AIRTIME_CASH_DEFAULT_ROUTING)].filter((p): p is AirtimeCashProviderId =>
    (AIRTIME_CASH_PROVIDERS as readonly string[]).includes(p),
  );
}
