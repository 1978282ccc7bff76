import type { Clock } from '../kernel/clock.js';
import type { Config } from '../config.js';
import type { Database, Db } from '../db/client.js';
import type { EventBus, Work } from './change.js';

import type { FileStorage } from '../providers/storage.js';
import type { IdentityProvider } from '../providers/identity.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Ledger } from '../ledger/ledger.js';
import type { Logger } from '../lib/logger.js';
import type { LoopbackTransport } from '../providers/http-transport.js';
import type { Mailer, SmsSender } from '../providers/messaging.js';
import type { ProcessorRegistry } from '../providers/processor.js';
import type { ProviderId, VtuProvider } from '../providers/vtu/types.js';
import type { PushSender } from '../providers/push.js';
import type { ReadReplica } from '../db/replica.js';
import type { Resolver } from '../lib/public-address.js';
import type { ServiceNameOf } from '../kernel/notices.js';
import type { SmsGateway } from '../providers/sms.js';
import type { OperatorRole } from '../kernel/actor.js';

/**
 * The dependency container (docs/style.md rule 7): the platform and the adapters the composition root (services.ts)
 * builds. Each module's entry file adds what it provides (`declare module` on this interface), so the platform names
 * no module. A module's factory and its handlers see only the members it names among its needs.
 */
export interface Services {
  config: Config;
  database: Database;
  db: Db;
  /** Reads that tolerate lag: the streaming replica of DATABASE_READ_URL when it is caught up, else the primary. */
  replica: ReadReplica;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  jobs: JobQueue;
  mailer: Mailer;
  sms: SmsSender;
  events: EventBus;
  /** The unit of work: every change a module makes (change.ts). */
  work: Work;
  push: PushSender;
  processors: ProcessorRegistry;
  /** The one outbound transport (http-transport.ts): the processor, SMS and VTU adapters and the sandbox's callbacks. */
  upstream: LoopbackTransport;
  /** The SMS gateway, when one is configured (always in the sandbox: its simulator). */
  smsGateway: SmsGateway | null;
  /** DNS for push endpoints and webhooks (tests control it). */
  resolver: Resolver;
  /** The service kinds' names in purchase notices, per language (the VTU module's list), for the notifications' wording. */
  serviceNames: ServiceNameOf;
  /**
   * The operator roles that may call an admin operation, as the registry declares them (admin first), or null for an
   * operation that is no admin one: who is told of the work that operation resolves (issue 44's alerts).
   */
  operationRoles: (operation: string) => readonly OperatorRole[] | null;
  /** The identity-number lookup (NIN/BVN): the sandbox's simulator or the configured HTTP provider. */
  identityLookups: IdentityProvider;
  /** Where KYC files are kept. */
  storage: FileStorage;
  /** The VTU providers' adapters, by id. */
  vtuProviders: Record<ProviderId, VtuProvider>;
}

/** The services a module may name among its needs (the composition root's members). */
export type ServiceName = keyof Services;
