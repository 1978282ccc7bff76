import type { Config } from './config.js';
import type { Database, Db, Subscription } from './db/client.js';
import type { ReadReplica } from './db/replica.js';
import type { Clock } from './kernel/clock.js';
import type { AuthUser } from './kernel/actor.js';
import type { ServiceNameOf } from './kernel/notices.js';
import type { Logger } from './lib/logger.js';
import type { Ledger } from './ledger/ledger.js';
import type { JobQueue } from './jobs/queue.js';
import type { EventBus } from './lib/events.js';
import type { Resolver } from './lib/public-address.js';
import type { Mailer, SmsSender } from './providers/messaging.js';
import type { PushSender } from './providers/push.js';
import type { IdentityProvider } from './providers/identity.js';
import type { FileStorage } from './providers/storage.js';
import type { SmsGateway } from './providers/sms.js';
import type { LoopbackTransport } from './providers/http-transport.js';
import type { ProcessorRegistry } from './providers/processor.js';
import type { ProviderId, VtuProvider } from './providers/vtu/types.js';
import type { TokenService } from './modules/identity/tokens.js';
import type { OtpService } from './modules/identity/otp.js';
import type { PinService } from './modules/identity/pins.js';
import type { IdentityService } from './modules/identity/service.js';
import type { WalletService } from './modules/wallet/service.js';
import type { WalletLimits } from './modules/wallet/limits.js';
import type { WalletMoney } from './modules/wallet/transfers.js';
import type { Notifier } from './modules/notifications/notifier.js';
import type { Outbox } from './modules/notifications/outbox.js';
import type { OperatorsService } from './modules/operators/service.js';
import type { NotificationsService } from './modules/notifications/service.js';
import type { SecurityService } from './modules/security/service.js';
import type { SettingsService } from './modules/settings/service.js';
import type { MarketplaceService } from './modules/marketplace/service.js';
import type { SubscriptionService } from './modules/subscriptions/service.js';
import type { SupportService } from './modules/support/service.js';
import type { ReportsService } from './modules/reports/service.js';
import type { ReceiptService } from './modules/receipts/service.js';
import type { ScheduleService } from './modules/schedules/service.js';
import type { BeneficiaryService } from './modules/beneficiaries/service.js';
import type { KycService } from './modules/kyc/service.js';
import type { GrowthArea } from './modules/growth/register.js';
import type { PaymentsService } from './modules/payments/service.js';
import type { VtuServiceApi } from './modules/vtu/service.js';
import type { AirtimeCashService } from './modules/vtu/kinds/airtime-cash/service.js';
import type { ConsoleService } from './modules/console/service.js';
import type { CustomerService } from './modules/customers/service.js';
import type { ApprovalService } from './modules/approvals/service.js';

/**
 * The dependency container (docs/style.md rule 7): the platform, the adapters the composition root (services.ts) builds,
 * and what each module's entry file provides. A module's factory and its handlers see only the members it names
 * among its needs. Tests build it through buildApp with their own clock and database.
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
  tokens: TokenService;
  otp: OtpService;
  pins: PinService;
  identity: IdentityService;
  wallet: WalletService;
  walletLimits: WalletLimits;
  /** The auth_changed feed behind the session cache (closed with the app). */
  authChanges: Subscription;
  /** Drops the in-memory growth settings when any instance changes them (migration 0602). */
  growthSettingsChanges: Subscription;
  notifier: Notifier;
  events: EventBus;
  /** VTU purchases, catalogues, reconciliation; purchase() is reused by scheduled purchases. */
  vtu: VtuServiceApi;
  /** Airtime-to-cash (issue 32): inbound airtime credited on the provider's confirmation. */
  airtimeCash: AirtimeCashService;
  /** Reliable mail/SMS for everything but OTP codes: enqueue in the caller's tx (docs/architecture.md "Outbox"). */
  outbox: Outbox;
  push: PushSender;
  notifications: NotificationsService;
  security: SecurityService;
  settings: SettingsService;
  marketplace: MarketplaceService;
  subscriptions: SubscriptionService;
  support: SupportService;
  reports: ReportsService;
  receipts: ReceiptService;
  schedules: ScheduleService;
  /** Saved beneficiaries and "my number" per customer. */
  beneficiaries: BeneficiaryService;
  kyc: KycService;
  /** Referrals, check-ins, savings locks, loans and their operator settings. */
  growthSettings: GrowthArea['growthSettings'];
  growth: GrowthArea['growth'];
  savings: GrowthArea['savings'];
  loans: GrowthArea['loans'];
  /** Wallet debits and transfers. */
  walletMoney: WalletMoney;
  /** Top-ups, webhook events, dedicated accounts, reconciliation. */
  payments: PaymentsService;
  processors: ProcessorRegistry;
  /** The one outbound transport (http-transport.ts): the processor, SMS and VTU adapters and the sandbox's callbacks. */
  upstream: LoopbackTransport;
  /** The SMS gateway, when one is configured (always in the sandbox: its simulator). */
  smsGateway: SmsGateway | null;
  /** Step-up gate (docs/design.md §5), provided by the two-factor module. */
  stepUp?: { require(user: AuthUser, grantToken: string | undefined): Promise<void> };
  /** DNS for push endpoints and webhooks (tests control it). */
  resolver: Resolver;
  /** The service kinds' names in purchase notices, per language (the VTU module's list), for the notifications' wording. */
  serviceNames: ServiceNameOf;
  /** The identity-number lookup (NIN/BVN): the sandbox's simulator or the configured HTTP provider. */
  identityLookups: IdentityProvider;
  /** Where KYC files are kept. */
  storage: FileStorage;
  /** The VTU providers' adapters, by id. */
  vtuProviders: Record<ProviderId, VtuProvider>;
  /** The operator console (issue 30): dashboard panels and operator jobs (reconciliation, requery, exports). */
  operatorConsole: ConsoleService;
  /** Operators' customer look-ups, freeze and sign-out everywhere (issue 30). */
  customers: CustomerService;
  /** Operators' roles, and the admins' announcements of authority changes (issue 41). */
  operators: OperatorsService;
  /** Four-eyes on operators' money actions (issue 30). */
  approvals: ApprovalService;
}
