import type { Work } from '../../../platform/change.js';
import type { z } from 'zod';
import type { ErrorCode } from '../../../kernel/errors.js';
import type { CatalogueEntry, Outcome, ProviderId, PurchaseRequest, VerifyResult, VtuProvider } from '../../../providers/vtu/types.js';
import type { Db } from '../../../db/client.js';
import type { Clock } from '../../../kernel/clock.js';
import type { ServiceNames } from '../../../kernel/notices.js';
import type { VtuRow } from '../repository.js';
import type { KindSimulator } from './simulator.js';

/**
 * A service kind: everything specific to one thing the platform sells (airtime, data, cable, electricity, betting,
 * exam PINs, and whatever comes next), declared in ONE folder, src/modules/vtu/kinds/<kind>/. The VTU core (the
 * debit, the provider attempt with fallback, pending and requery, the refund, reconciliation, crash recovery, the
 * buyer's notifications, operator requery/resolve, markups, routing and float settings) runs every kind through the
 * same path and asks the kind only for what is its own, through this interface.
 *
 * Adding a kind:
 *  1. a folder kinds/<kind>/ with
 *     - inputs.ts: its input schemas, zod and src/kernel only (the app's forms import it);
 *     - names.ts: `export const names: ServiceNames`, its name in the four notice languages (plain data: the app's
 *       inbox reads it too, so the folder is named as the kind);
 *     - index.ts: `export const <kind>Kind: ServiceKind<Input> = {...}` (below): name, label, names, feeOnTop,
 *       default routing, the purchase operation, the other operations (catalogues, quote, verify, look-ups) as data,
 *       `prepare`, `request`, `wholesaleAt`, `view`, `repeat` and its per-provider adapters; split into more files
 *       of the folder as it grows (the file-size limit is 400 lines). It imports nothing from src/http (operations
 *       are data), so the VTU service can import the list;
 *     - simulator.ts: how the sandbox's providers answer it (./simulator.ts KindSimulator: its part of a provider's
 *       protocol routes, its own routes, its magic values), no Fastify and no sandbox import; `simulator` names it
 *       lazily. A kind its providers' protocols already answer (airtime, data, the bills) needs none;
 *     - app/ (when it has a buy screen): tab.ts (its tab: service key, place, label in each language, which the app
 *       also names its purchases with), screen.tsx, schemas.ts (its forms, with `forms()` naming the operation each
 *       fills), queries.ts and strings-<lang>.ts; the app finds them by their paths (web/src/app/kinds.ts describes
 *       them), no line anywhere;
 *  2. ONE line in kinds/index.ts (the list, KINDS). The operations (the registry wraps each `operations` entry and
 *     builds the purchase operation with the PIN, Tier 1, money and rate-limit gates), the `service` filter and
 *     markup inputs, the default routing, the provider floats' service lists, `repeat.operation`, the OpenAPI
 *     document, the sandbox's simulators and the buyer's notifications (`label`, `names`) all derive from it; the
 *     app's inbox reads every kinds/<kind>/names.ts (the folder is the kind's name).
 *  A kind that keeps tables of its own (flights) has them in its folder too: their migrations in
 *  kinds/<kind>/migrations/ (applied with src/db/migrations in file-name order: src/db/migrate.ts) and their Drizzle
 *  definitions in kinds/<kind>/schema.ts (test/db/schema-drift.test.ts finds them).
 *  Still outside the folder: the typed client's generated types (`npm run api:types`) and the README's VTU section
 *  and sandbox table.
 *  An inbound kind (money flows in: airtime-to-cash) is an InboundKind in INBOUND_KINDS and a module of its own.
 *
 * What the core guarantees every kind: a purchase is validated and priced by `prepare` BEFORE any debit; the debit and
 * the `processing` row are one statement; the provider is called with a stable request id (`request_id`), through the
 * kind's adapter for the row's provider; a definite failure falls back along the routing (when `wholesaleAt` prices
 * the same product at the next provider) or refunds, exactly once; pending/unknown answers are requeried with the
 * same request id (by the kind adapter's `requery` when it has one, else the provider's) until they settle.
 */
export interface ServiceKind<I = any, A extends KindAdapter = KindAdapter> {
  /**
   * The `service` column value: also the routing key (VTU_ROUTING), the markup key (adminSetMarkup's service), the
   * `service` filter of the transaction lists and the 'vtu.succeeded' event's service. Lower-case, [a-z0-9_-].
   */
  readonly name: string;
  /** Lower-case words for the English notices and ledger descriptions: "cable TV subscription". */
  readonly label: string;
  /**
   * Its name in the buyer's purchase notices in each language ("Travel eSIM", "eSIM na tafiya"...): declared in its
   * names.ts (plain data, so the app may import it too); the notifications' wording gets it through serviceName.
   */
  readonly names: ServiceNames;
  /**
   * True when the buyer chooses the amount (a face value) and the markup is a fee on top of it (the answer says so);
   * false when a plan's retail price is the price (no fee line).
   */
  readonly feeOnTop: boolean;
  /** Providers in order when VTU_ROUTING does not name the kind: the first is tried first, the rest are fallbacks. */
  readonly defaultRouting: readonly ProviderId[];
  /**
   * The operation that buys this kind (also "buy again": the transaction view's `repeat.operation`). The registry
   * adds the PIN, KYC Tier 1, money and rate-limit gates, Idempotency-Key handling and the Transaction output.
   */
  readonly purchase: PurchaseOperation<I>;
  /** The kind's other operations: catalogues, quote, verification, its own look-ups (suffix BearerVTU). */
  readonly operations: readonly KindOperation[];

  /**
   * Validation against the catalogue and pricing, before any debit: the row to write. Throws AppError
   * (VALIDATION_FAILED, PRICE_CHANGED, NETWORK_MISMATCH, SERVICE_UNAVAILABLE...) to refuse. `input` is the purchase
   * operation's input without the PIN (or what a scheduled purchase sends); `buyer` is who buys (a kind holding
   * something per customer, a flight offer, checks it is the buyer's).
   */
  prepare(ctx: KindContext, input: I, buyer: Purchaser): Promise<Prepared>;
  /** quotePurchase for this kind: the amount bought, the fee and the total, by the same prices as `prepare`. */
  quote?(ctx: KindContext, input: QuoteRequest): Promise<PriceOf>;
  /** quotePurchase's input check for this kind: an issue per missing or out-of-bounds field (400 before `quote`). */
  quoteIssues?(input: QuoteRequest): { path: string; message: string }[];
  /**
   * The provider request for a row at its current provider, from the core's `base` (request id, recipient, wholesale
   * and the legacy columns). Null when the provider does not sell the row's product (a definite failure, no call).
   * Omitted: the base as is.
   */
  request?(ctx: KindContext, row: VtuRow, base: PurchaseRequest): Promise<PurchaseRequest | null>;
  /**
   * Wholesale at another provider for a fallback, or null when it does not sell the same product (no fallback).
   * Omitted: the same wholesale (a face value costs the same everywhere). Errors count as null.
   */
  wholesaleAt?(ctx: KindContext, row: VtuRow, provider: ProviderId): Promise<bigint | null>;
  /**
   * The kind's own fields of the transaction view beyond the shared ones (id, status, amounts, recipient, provider,
   * and the legacy columns network/planId/product/meterType/quantity/phone when set, token/units/pins/customerName
   * from the delivery). Declare their schema in `viewFields` so the OpenAPI document lists them.
   */
  view?(row: VtuRow): Record<string, unknown>;
  /** zod shapes of `view`'s fields (all optional in the shared Transaction schema). */
  readonly viewFields?: Record<string, unknown>;
  /** "Buy again": the purchase operation's input read from the row, without the PIN (`value` = amount less the fee). */
  repeat(row: VtuRow, value: bigint): Record<string, string | number | boolean>;
  /**
   * "Buy again" of the rows bought through another of the kind's operations (an eSIM top-up: `topUpEsim`): that
   * operation and which rows; `repeat` gives its input for them. Omitted: every row repeats the purchase operation.
   */
  readonly repeatVia?: { operation: string; rows(row: VtuRow): boolean };
  /**
   * Settlement of a partly delivered purchase: the part of the row's wholesale and markup NOT delivered (the provider
   * gave the undelivered part's wholesale back to our float), refunded to the buyer in the transaction that marks the
   * row delivered (ledger reference vtu_partial_refund_<reference>: at most once). Null or omitted: nothing to refund.
   */
  partialRefund?(row: VtuRow, out: Outcome): { wholesale: bigint; markup: bigint } | null;
  /**
   * The kind's own lines on the signed receipt of a delivered purchase (an eSIM's ICCID, a flight's PNR), computed when
   * the row is settled delivered and kept with its delivery (details.receiptLines), so the receipts module prints
   * them without knowing kinds. `mask: true`: masked on the public verification page like the recipient.
   */
  receiptLines?(row: VtuRow, out: Outcome): ReceiptLine[];
  /** Extra text for the buyer's "delivered" notification (the core already adds an electricity-style token). */
  deliveredNote?(row: VtuRow, out: Outcome): string;

  /**
   * The kind's adapter at each provider that sells it, built from that provider's adapter (its config, credentials
   * and transport: `provider.client`, see providers/vtu/transport.ts providerClient). A kind may extend KindAdapter
   * with its own calls (an eSIM's usage look-up, a flight search): type A. Providers not named do not sell the kind.
   */
  readonly adapters: Partial<Record<ProviderId, (provider: VtuProvider) => A>>;
  /**
   * How the sandbox's providers answer this kind (kinds/simulator.ts: its part of a provider's protocol routes, its
   * own routes, its magic values), in its folder's simulator.ts; imported lazily, so only the sandbox loads it:
   * `simulator: () => import('./simulator.js').then((m) => m.<kind>Simulator)`. Omitted: the providers' protocol
   * simulators answer it as they are (airtime, data, the bills).
   */
  readonly simulator?: () => Promise<KindSimulator>;
}

/**
 * An inbound kind (airtime-to-cash): money flows IN (the customer sends airtime, the wallet is credited), so there is
 * no debit and no refund and it does not run through the purchase path. It is a module of its own in its folder
 * (kinds/<kind>/index.ts: its table, service, operations, jobs, webhook; one line in modules/index.ts, see
 * docs/decisions.md) and is listed in kinds/index.ts (INBOUND_KINDS) for what it shares with the kinds: its routing
 * by VTU_ROUTING (checked at start), the providers' floats' service lists and its sandbox simulator. Declared in a
 * file of its folder that imports no module code (the configuration reads it before anything is built).
 */
export interface InboundKind {
  /** Its key in VTU_ROUTING, also the name its ledger postings and the floats' lists use; [a-z][a-z0-9_-]*. */
  readonly name: string;
  /** The providers with its adapter: VTU_ROUTING may name only these (any other stops the start). */
  readonly providers: readonly ProviderId[];
  /** Its routing when VTU_ROUTING does not name it. */
  readonly defaultRouting: readonly ProviderId[];
  /** Spellings of its key refused at start, naming the right one (its module's or folder's name). */
  readonly aliases?: readonly string[];
  /** Its words in the start's refusal: "airtime-to-cash". */
  readonly label: string;
  /** Its provider simulator for the sandbox, imported lazily (as ServiceKind.simulator). */
  readonly simulator?: () => Promise<KindSimulator>;
}

export interface ReceiptLine {
  label: string;
  value: string;
  mask?: boolean;
}

/**
 * One provider's side of a kind. `purchase` is required; catalogue lists and verification when the kind has them.
 * `requery` when the kind's requery differs from the provider's own (the core uses provider.requery otherwise).
 * A kind extends this with its own calls.
 */
export interface KindAdapter {
  /** A catalogue list by name ('data_plans', 'cable_plans'...), cached by the core for 30 minutes per provider/arg. */
  catalogue?(list: string, arg?: string): Promise<CatalogueEntry[]>;
  verify?(input: VerifyInput): Promise<VerifyResult>;
  purchase(req: PurchaseRequest): Promise<Outcome>;
  requery?(requestId: string): Promise<Outcome>;
}

export interface VerifyInput {
  account: string;
  product: string;
  meterType?: 'prepaid' | 'postpaid';
}

/** What the core lends a kind: its routing, prices, cached catalogue and adapters, all for THIS kind. */
export interface KindContext {
  readonly name: string;
  /** The price level this context prices at (issue 45: the buyer's). */
  readonly level: string;
  /**
   * Providers in order (../routing.ts: the console's order for `network`, else for the kind, else VTU_ROUTING, else the
   * kind's default); a kind sold per network passes the purchase's. Throws SERVICE_UNAVAILABLE when none.
   */
  route(network?: string): Promise<ProviderId[]>;
  /**
   * Wholesale -> retail at this context's level: the level's rule for `plan` (a catalogue entry: its key, else its
   * code) or for the service, else this kind's markup at `provider`. A plan switched off is refused (400).
   */
  priced(provider: ProviderId, wholesale: bigint, plan?: Pick<CatalogueEntry, 'key' | 'code'>): Promise<Priced>;
  /**
   * Retail prices of catalogue entries at `provider` at this context's level (null when the entry's price is the
   * buyer's choice); plans switched off are left out.
   */
  retailList(provider: ProviderId, entries: CatalogueEntry[]): Promise<{ e: CatalogueEntry; retail: bigint | null }[]>;
  /** PRICE_CHANGED unless `amountNaira` (what the buyer confirmed) is `retail`; `what` names the product. */
  assertPrice(amountNaira: number, retail: bigint, what: string): void;
  /** A catalogue list of this kind's adapter at `provider`, cached (a provider outage serves the last copy). */
  catalogue(provider: ProviderId, list: string, arg?: string): Promise<CatalogueEntry[]>;
  /** This kind's adapter at `provider`; SERVICE_UNAVAILABLE when the provider does not sell it. */
  adapter<A extends KindAdapter = KindAdapter>(provider: ProviderId): A;
  /**
   * Runs a look-up at a provider: a ProviderError becomes UPSTREAM_ERROR ("The provider could not be reached for
   * <what>; try again shortly", `what` defaulting to "verification").
   */
  upstream<T>(fn: () => Promise<T>, what?: string): Promise<T>;
  /**
   * The platform, for a kind that keeps tables of its own (flights: the offers a search holds, cancellations): the
   * database, the clock and the unit of work (a kind's own money movement, such as a cancellation's refund, is a
   * change: its posting with a unique reference, the kind's rows and its notices).
   */
  readonly platform: KindPlatform;
}

export interface KindPlatform {
  db: Db;
  clock: Clock;
  work: Work;
}

export interface Priced {
  wholesale: bigint;
  markup: bigint;
  retail: bigint;
}

/** quotePurchase's inputs (the purchase's without the recipient and the PIN). */
export interface QuoteRequest {
  service: string;
  amount?: number;
  network?: string;
  plan_id?: string;
  identifier?: string;
  exam?: string;
  quantity?: number;
}

/** What a quote prices: the product's name when there is one, and the prices. */
export interface PriceOf extends Priced {
  name: string | null;
}

/**
 * The row a purchase writes. The legacy columns (network .. profileId) belong to the first six kinds; a new kind
 * keeps its own inputs in `inputs` (the jsonb column vtu_transactions.inputs), so it needs no new column.
 */
export interface Prepared {
  service: string;
  recipient: string;
  network?: string;
  planId?: string;
  product?: string;
  meterType?: 'prepaid' | 'postpaid';
  quantity?: number;
  phone?: string;
  profileId?: string;
  /** A new kind's own inputs (kept in vtu_transactions.inputs, read back as row.inputs). */
  inputs?: Record<string, unknown>;
  ported: boolean;
  provider: ProviderId;
  wholesale: bigint;
  markup: bigint;
  retail: bigint;
}

/** The purchase operation of a kind (data: the registry declares it; its handler is the core's purchase). */
export interface PurchaseOperation<I = any> {
  name: string;
  purpose: string;
  /** Served at /api/v1/<name> too (spec 4.5's operations). */
  versioned?: boolean;
  /** The purchase's input WITH the `pin` field (the registry's PIN gate checks it; `prepare` gets it without). */
  input: z.ZodObject<any>;
  /** Codes beyond the purchase's common ones (INVALID_PIN .. UPSTREAM_ERROR): PRICE_CHANGED, NETWORK_MISMATCH... */
  errors?: ErrorCode[];
  /** Checks before the PIN, the tier and any debit (spec rule 5: the network prefix). */
  precheck?: (input: I & { pin: string }) => void;
}

/**
 * A kind's operation as data: the registry (../operations.ts) declares it for the vtu module with the kind's
 * KindContext and the caller in `env`. Customer operations (suffix BearerVTU): a caller is signed in.
 */
export interface KindOperation<I extends z.ZodObject<any> = z.ZodObject<any>, O extends z.ZodObject<any> = z.ZodObject<any>> {
  name: string;
  method: 'GET' | 'POST';
  purpose: string;
  versioned?: boolean;
  /** A catalogue: clients may cache the answer for the catalogue's 30 minutes (spec rule 7). */
  catalogue?: boolean;
  input: I;
  output: O;
  errors?: ErrorCode[];
  gates?: { pin?: boolean; kycTier?: 1 | 2 | 3; money?: boolean };
  rateLimit?: 'default' | 'auth' | 'money' | 'strict';
  handler: (input: z.infer<I>, env: KindEnv) => Promise<z.input<O>>;
}

/** A helper that keeps a KindOperation's input and output types for its handler. */
export const kindOperation = <I extends z.ZodObject<any>, O extends z.ZodObject<any>>(op: KindOperation<I, O>): KindOperation =>
  op as unknown as KindOperation;

/** What a kind's operation handler gets: the kind's context, the caller, and the VTU core's calls. */
export interface KindEnv {
  kind: KindContext;
  user: Purchaser;
  vtu: VtuCore;
}

export interface Purchaser {
  id: string;
  kycTier: number;
  /** The API key the purchase is made with (issue 45), recorded on the purchase; none in a session. */
  apiKey?: { id: string };
}

/** The VTU core's calls a kind's operations may make. */
export interface VtuCore {
  /** The shared purchase path (debit, attempt, fallback, pending, refund) for `kind` with its `prepare` input. */
  purchase(user: Purchaser, kind: string, input: object): Promise<Record<string, unknown>>;
  /** Another kind's context (a kind that sells through another's catalogue). */
  kind(name: string): KindContext;
  /** The caller's own purchase row by id (any kind: check `service`), or undefined (read where the caller's reads go). */
  ownRow(userId: string, id: string): Promise<VtuRow | undefined>;
}
