import type { Db } from '../../db/client.js';
import type { ApiScope, AuthUser } from '../../kernel/actor.js';
import type { Clock } from '../../kernel/clock.js';
import type { Ledger } from '../../ledger/types.js';
import type { Work } from '../../platform/change.js';
import type { IdentityService } from '../identity/api.js';
import type { WebhookEvent } from './inputs.js';
import type { KeyMode } from './keys.js';
import type { ShadowAccounts } from './shadow-accounts.js';

/**
 * Test mode (issue 45, docs/decisions.md "Test mode is another world"): a test key's requests are answered by a second
 * instance of the whole service, the test world, built by the composition root on a database of its own with every
 * upstream a simulator, even in production. There the key's customer is a shadow account of the same e-mail with a
 * test wallet of its own; nothing there can reach the live database, ledger or providers, and nothing live is there.
 */

export interface ForwardedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  ip: string;
}

export interface ForwardedAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/**
 * API keys (issue 45): a customer's keys, each with scopes, allowed addresses and a daily spend limit; the secret is
 * shown once and stored as its hash. A request with a key runs the same operations as a session (http/operation-key.ts).
 */
export interface ApiKeyView {
  id: string;
  name: string;
  mode: KeyMode;
  prefix: string;
  scopes: ApiScope[];
  allowedIps: string[] | null;
  dailyLimit: number | null;
  spentToday: number;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  rolledFrom: string | null;
  /** When an operator suspended it (refused with KEY_SUSPENDED until resumed); null when it is not suspended. */
  suspendedAt: string | null;
}

/** A key as the console's resellers show it (issue 45): its view and its purchases by Lagos day. */
export type ConsoleKey = ApiKeyView & { usage: { day: string; purchases: number; succeeded: number; spend: number }[] };

export interface NewKey {
  name: string;
  mode: KeyMode;
  scopes: ApiScope[];
  allowedIps?: string[];
  dailyLimit?: number;
}

/**
 * The test world as the live one sees it (test-mode.ts; built by the composition root on first use). Inside the test
 * world itself there is none.
 */
export interface TestWorld {
  /**
   * Whether the test world exists yet (built in this process, or its data kept from an earlier one): a list that only
   * reads it, such as the console's resellers, does not build it (a migration of its own database) for nothing.
   */
  started(): boolean;
  /** Answers a request made with a test key, in the test world. */
  forward(request: ForwardedRequest): Promise<ForwardedAnswer>;
  /** The test world's own developers service: its keys and shadow accounts. */
  developers(): Promise<TestDevelopers>;
  /** The test world's own webhooks: its endpoints, deliveries and their log (test mode's events only). */
  webhooks(): Promise<TestWebhooks>;
  /** Runs the test world's due jobs now, when it is built (tests; npm start and production run its worker). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The live world as the test world sees it (issue 45): only where the owner of a test endpoint that kept failing is
 * told, by the live world's e-mail, in the live customer's language. Null in the live world.
 */
export interface LiveWorld {
  /** E-mails the live customer of `email` that its test endpoint `url` was disabled, for `reason`. */
  testEndpointDisabled(notice: { email: string; url: string; reason: string }): Promise<void>;
}

export interface DevelopersDeps {
  db: Db;
  clock: Clock;
  brand: string;
  ledger: Ledger;
  work: Work;
  identity: IdentityService;
  /** Null inside the test world: its keys are test keys, and it has no test world of its own. */
  testWorld: TestWorld | null;
}

type KeyHolder = Pick<AuthUser, 'id' | 'email'>;

/** What the live world asks of the test world's developers service: the customer's test keys and shadow account. */
export interface TestDevelopers {
  createKey(user: AuthUser, k: NewKey): Promise<{ key: ApiKeyView; secret: string }>;
  listKeys(user: KeyHolder): Promise<ApiKeyView[]>;
  revokeKey(user: KeyHolder, id: string): Promise<ApiKeyView>;
  rollKey(user: KeyHolder, id: string, overlapHours: number): Promise<{ key: ApiKeyView; secret: string }>;
  /** Purchases made with this world's keys of a customer (its shadow account there) by key and Lagos day. */
  ownUsage(userId: string, days: number): Promise<{ key: string; day: string; purchases: number; succeeded: number; spend: number }[]>;
  /** The health of the test endpoints of these customers' shadow accounts (the console's resellers), with their e-mail. */
  webhookHealth(emails: string[]): Promise<(WebhookHealth & { email: string })[]>;
  /** The e-mails of the shadow accounts holding a key (the console's resellers list every customer holding one). */
  keyHolders(): Promise<string[]>;
  /** The keys of these customers' shadow accounts with their usage (the console's resellers), with their e-mail. */
  consoleKeys(emails: string[]): Promise<(ConsoleKey & { email: string })[]>;
  /** An operator suspends (or resumes) one of its keys (adminSuspendApiKey); NOT_FOUND when it has none of that id. */
  suspendKey(actorId: string, keyId: string, suspended: boolean): Promise<{ key: ApiKeyView; email: string; wasSuspended: boolean }>;
  shadow: ShadowAccounts;
}

/** A webhook endpoint's health as the console's resellers show it (issue 45), in its world's mode. */
export interface WebhookHealth {
  id: string;
  mode: KeyMode;
  url: string;
  events: string[];
  status: string;
  disabledReason: string | null;
  disabledAt: string | null;
  lastDelivery: { status: string; responseStatus: number | null; at: string | null } | null;
  failedLast7Days: number;
  pending: number;
}

/**
 * Who a webhook endpoint belongs to: the caller, or in the test world the caller's shadow account (the username, when
 * given, is mirrored to a shadow account made for it).
 */
export type WebhookHolder = Pick<AuthUser, 'id' | 'email' | 'kycTier'> & Partial<Pick<AuthUser, 'username'>>;

export interface NewEndpoint {
  url: string;
  events: WebhookEvent[];
  /** The world whose events it takes: live (this service's) or test (the test world's). */
  mode: KeyMode;
}

/** A webhook endpoint as the API shows it; `mode` is the world it lives in (issue 45). */
export interface EndpointView {
  id: string;
  mode: KeyMode;
  url: string;
  events: WebhookEvent[];
  status: 'active' | 'disabled';
  disabledReason: string | null;
  createdAt: string;
}

/** One delivery of the delivery log, in its endpoint's world. */
export interface DeliveryView {
  id: string;
  mode: KeyMode;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  responseStatus: number | null;
  responseMs: number | null;
  error: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
}

/** What the live world asks of the test world's webhooks, for the caller's shadow account there. */
export interface TestWebhooks {
  createEndpoint(user: WebhookHolder, input: NewEndpoint): Promise<{ endpoint: EndpointView; secret: string }>;
  listEndpoints(user: WebhookHolder): Promise<EndpointView[]>;
  disableEndpoint(user: WebhookHolder, id: string): Promise<EndpointView>;
  listDeliveries(user: WebhookHolder, page: DeliveryPage): Promise<DeliveryView[]>;
  resend(user: WebhookHolder, id: string): Promise<DeliveryView>;
}

export interface DeliveryPage {
  limit: number;
  offset: number;
  endpointId?: string;
  mode: KeyMode;
}
