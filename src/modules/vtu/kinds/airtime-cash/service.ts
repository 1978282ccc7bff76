import type { Network } from '../../../../kernel/phone.js';
import type { ReceiptStatus } from './adapter.js';
import { adminList, adminRequery, adminResolve } from './admin.js';
import { confirm, reconcileDue, receiveWebhook } from './confirmations.js';
import type { AirtimeCashDeps, AirtimeCashUseDeps } from './deps.js';
import { checkMine, getMine, listMine } from './my-requests.js';
import { networks, quote } from './rates.js';
import type { AirtimeCashStatus } from './repository.js';
import { request } from './request.js';
import type { AirtimeCashProviderId } from './routing.js';
import { numbers, sendNumberCode, verifyNumber } from './sending-numbers.js';
import { createAirtimeCashSettlement } from './settlement.js';

export type { AirtimeCashDeps } from './deps.js';
export { SHARE_AND_SELL } from './request.js';
export { airtimeCashView } from './view.js';

/**
 * Airtime-to-cash (issue 32 item 2), an inbound flow, sent to the first provider of its routing (VTU_ROUTING's
 * airtime_cash, default C: routing.ts); its requeries and webhooks go to the provider the row records. A request checks the sending number (the caller's
 * verified phone or one proved by SMS code), the bounds and the daily caps per customer and per sending number, and
 * asks the provider for a receiving number; the customer is told where and how to send (the network's share-and-sell
 * USSD string) under a reference. The wallet is credited at the request's rate ONLY when the provider confirms what it
 * received (its signed webhook or a requery), never on the customer's word: the part received when less arrived,
 * once per request whatever how often the confirmation comes (ledger reference airtime_cash:<request id>). A request
 * the provider says nothing reached expires with nothing credited; one the provider cannot be asked about stays
 * awaiting (never expired blindly) and is listed for operators.
 */
export function createAirtimeCashService(deps: AirtimeCashDeps) {
  const { config, db, clock, log } = deps;
  const { apply, close } = createAirtimeCashSettlement({ config, db, clock, log, work: deps.work });
  const use: AirtimeCashUseDeps = { ...deps, apply, close };

  return {
    /** The networks bought, with today's rate and one request's bounds. */
    networks: () => networks(use),
    quote: (userId: string, input: { network: Network; amount: number }) => quote(use, userId, input),
    sendNumberCode: (userId: string, phone: string, ip?: string) => sendNumberCode(use, userId, phone, ip),
    verifyNumber: (userId: string, phone: string, code: string, ip?: string) => verifyNumber(use, userId, phone, code, ip),
    numbers: (userId: string) => numbers(use, userId),
    /** The request (request.ts). The caller's PIN and Idempotency-Key were checked by the registry. */
    request: (user: { id: string; kycTier: number }, input: { network: Network; phone: string; amount: number; ported?: boolean }) =>
      request(use, user, input),
    listMine: (userId: string, f: { status?: AirtimeCashStatus; limit: number; offset: number }) => listMine(use, userId, f),
    getMine: (userId: string, id: string) => getMine(use, userId, id),
    /** "I have sent it": the provider is asked now; only its answer credits. */
    checkMine: (userId: string, id: string) => checkMine(use, userId, id),
    /** A provider's webhook (confirmations.ts): UNAUTHENTICATED unless signed with that provider's secret. */
    receiveWebhook: (from: AirtimeCashProviderId, raw: Buffer, signature: string | undefined) => receiveWebhook(use, from, raw, signature),
    /** What a provider says of one of the requests sent to it, as its webhook brings it. */
    confirm: (from: AirtimeCashProviderId, requestId: string, receipt: ReceiptStatus) => confirm(use, from, requestId, receipt),
    /** Requeries every due awaiting request once; returns how many were checked. */
    reconcileDue: (max?: number) => reconcileDue(use, max),

    // ----- operators -----
    adminList: (f: { status?: AirtimeCashStatus; stuck?: boolean; limit: number; offset: number }) => adminList(use, f),
    adminRequery: (id: string) => adminRequery(use, id),
    /** An operator closes an awaiting request with nothing credited (admin.ts). */
    adminResolve: (id: string, note: string) => adminResolve(use, id, note),
  };
}

export type AirtimeCashService = ReturnType<typeof createAirtimeCashService>;
