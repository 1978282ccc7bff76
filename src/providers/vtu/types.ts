/**
 * One interface for every VTU upstream (docs/design.md §7, §11). Adapters speak the provider's own protocol over HTTP;
 * the domain only sees these shapes. Switching a provider to a real endpoint is configuration (base URL and
 * credentials in VTU_PROVIDER_<X>_URL / _KEY), not code.
 */
export type ProviderId = 'a' | 'b' | 'c' | 'd';
export const PROVIDER_IDS: ProviderId[] = ['a', 'b', 'c', 'd'];

/**
 * A service kind's name (the `service` column): the kinds are declared in src/modules/vtu/kinds/ (one folder each),
 * so this layer treats the name as opaque.
 */
export type VtuService = string;

/** Amounts crossing the adapter boundary are integer kobo; adapters convert to the provider's unit. */
export interface PurchaseRequest {
  /** Our stable request id: the same id is used for every call about this purchase (requery, retry). */
  requestId: string;
  service: VtuService;
  /** Phone (airtime, data), smartcard (cable), meter (electricity), customer id (betting), phone (exam). */
  recipient: string;
  /** What the provider charges us, kobo (face value for airtime/electricity/betting, plan price otherwise). */
  wholesale: bigint;
  network?: string;
  /** Product: cable provider (dstv), disco (ikeja), bet company, exam code. */
  product?: string;
  /** Provider's plan code: data plan id, cable variation_code. */
  variation?: string;
  /** Electricity meter type. */
  meterType?: 'prepaid' | 'postpaid';
  quantity?: number;
  /** Phone for receipts (cable, electricity, exam). */
  phone?: string;
  /** JAMB profile id. */
  profileId?: string;
  /** A newer kind's own inputs (vtu_transactions.inputs), for its adapter to map. */
  inputs?: Record<string, unknown>;
}

/** What the purchase delivered, kept on our transaction. */
export interface DeliveryDetails {
  token?: string;
  units?: string;
  pins?: { pin: string; serial?: string }[];
  customerName?: string;
  providerReference?: string;
  note?: string;
  /**
   * The quantity NOT delivered of a partly completed order (a social order's `remains`; an operator resolving one as
   * delivered states it too): a kind's partialRefund refunds its part.
   */
  remains?: number;
}

/**
 * delivered / failed are definite. pending: the provider accepted and will finish later. unknown: we could not
 * tell (timeout, 5xx, malformed answer): NOT a failure; reconciliation requeries with the same request id.
 * not_found (requery only): the provider has no record of the request id. low_float: refused before acceptance
 * because our float at the provider is short (safe to retry with the same request id after funding).
 */
/**
 * Which call an answer belongs to. A purchase may be refused at the door (bad input, bad credentials, low
 * float): a definite failure. A requery can only report the transaction's own state; a refused requery says
 * nothing about the purchase and is unknown.
 */
export type Phase = 'purchase' | 'requery';

export type OutcomeStatus = 'delivered' | 'failed' | 'pending' | 'unknown' | 'not_found' | 'low_float';

export interface Outcome {
  status: OutcomeStatus;
  details?: DeliveryDetails;
  /** Human-readable provider message (failure reason shown to the user when failed). */
  message?: string;
}

export interface CatalogueEntry {
  /** Provider's code for the product (variation_code, plan id, company code). */
  code: string;
  name: string;
  /** Wholesale price in kobo (null when the amount is chosen by the buyer). */
  price: bigint | null;
  network?: string;
  planType?: string;
  validity?: string;
  /** Provider-independent key (data plans: network-type-size-validity) used to map plans across providers. */
  key?: string;
  minAmount?: bigint;
  maxAmount?: bigint;
}

export interface VerifyResult {
  found: boolean;
  customerName?: string;
  address?: string;
  message?: string;
}

/** An answer as received: the HTTP status and the parsed JSON body (null when it was not JSON). */
export interface ProviderAnswer {
  status: number;
  body: any;
}

/**
 * The JSON calls of one provider, with its base URL, credentials, timeout and transport (transport.ts providerClient):
 * `call` answers whatever came back; `read` insists on a 2xx JSON object (else ProviderError: timeout, http,
 * malformed); `outcome` turns a purchase or requery answer into an Outcome with a protocol's parser, a timeout or
 * provider error being "unknown".
 */
export interface ProviderClient {
  call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ProviderAnswer>;
  read(method: 'GET' | 'POST', path: string, body?: unknown): Promise<any>;
  outcome(send: () => Promise<ProviderAnswer>, parse: (res: ProviderAnswer, phase: Phase) => Outcome, phase?: Phase): Promise<Outcome>;
}

/**
 * One upstream: what is the same whatever is bought there (requery by our request id, our float, funding) and the
 * client every kind's adapter at this provider is built from (src/modules/vtu/kinds/<kind>: `adapters`). What is
 * bought and how (catalogues, verification, the purchase body) belongs to the kinds.
 */
export interface VtuProvider {
  readonly id: ProviderId;
  /** The provider's protocol client (config, credentials, transport): kinds' adapters call through it. */
  readonly client: ProviderClient;
  requery(requestId: string): Promise<Outcome>;
  /** Our float balance at the provider, kobo. */
  balance(): Promise<bigint>;
  /** Credits our float at the provider (sandbox funding endpoint; a real provider is funded by bank transfer). */
  fund(amount: bigint, reference: string): Promise<bigint>;
}

/** The provider could not be reached or answered garbage outside a purchase (catalogue, verify, balance). */
export class ProviderError extends Error {
  constructor(
    readonly provider: ProviderId,
    message: string,
    readonly kind: 'timeout' | 'http' | 'malformed' | 'network' | 'refused',
  ) {
    super(message);
  }
}
