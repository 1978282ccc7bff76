import type { Config } from './config.js';
import { armFaultPoint } from './lib/faults.js';
import type { Database, Db, Subscription } from './db/client.js';
import type { Clock } from './kernel/clock.js';
import type { Logger } from './lib/logger.js';
import { createLedger, type Ledger } from './ledger/ledger.js';
import { JobQueue } from './jobs/queue.js';
import { capturingMailer, capturingSms, smtpMailer, type Mailer, type SmsSender } from './providers/messaging.js';
import { createTokenService, type TokenService } from './modules/identity/tokens.js';
import { createOtpService, type OtpService } from './modules/identity/otp.js';
import { createPinService, type PinService } from './modules/identity/pins.js';
import { createIdentityService, type IdentityService } from './modules/identity/service.js';
import { createSessionCache } from './modules/identity/session-cache.js';
import { createWalletService, type WalletService } from './modules/wallet/service.js';
import { createWalletLimits, parseTierLimits, type WalletLimits } from './modules/wallet/limits.js';
import { createNotifier, type Notifier } from './modules/notifications/notifier.js';
import { EventBus } from './lib/events.js';
import { createOutbox, type Outbox } from './modules/notifications/outbox.js';
import { createNotificationsService, SANDBOX_LOOPBACK_NAMES, type NotificationsService } from './modules/notifications/service.js';
import { systemResolver, type Resolver } from './lib/public-address.js';
import { createPushSender, loadVapidKeys, type PushSender } from './providers/push.js';
import { createSecurityService, type SecurityService } from './modules/security/service.js';
import { createSettingsService, type SettingsService } from './modules/settings/service.js';
import { createMarketplaceService, type MarketplaceService } from './modules/marketplace/service.js';
import { createSubscriptionService, type SubscriptionService } from './modules/subscriptions/service.js';
import { createSupportService, type SupportService } from './modules/support/service.js';
import { createReportsService, type ReportsService } from './modules/reports/service.js';
import { createReceiptService, type ReceiptService } from './modules/receipts/service.js';
import { loadReceiptKey } from './modules/receipts/keys.js';
import { createScheduleService, type ScheduleService } from './modules/schedules/service.js';
import { createKycService, type KycService } from './modules/kyc/service.js';
import { createHttpIdentityProvider } from './providers/identity.js';
import { createStorage } from './providers/storage.js';
import { createSimulatedIdentityProvider } from './sandbox/identity-simulator.js';
import { createGrowthArea, type GrowthArea } from './modules/growth/register.js';
import { GROWTH_SETTINGS_CHANNEL } from './modules/growth/settings.js';
import { createPaymentsService, type PaymentsService } from './modules/payments/service.js';
import { createWalletMoney, type WalletMoney } from './modules/wallet/transfers.js';
import { createVtuService, type VtuServiceApi } from './modules/vtu/service.js';
import { createVtuProviders } from './providers/vtu/index.js';
import { VtuTransport } from './providers/vtu/transport.js';
import { createLoopbackTransport, type LoopbackTransport } from './providers/http-transport.js';
import { countSmsSend } from './lib/metrics.js';
import { createSmsGateway, SMS_DEFAULT_BASE_URLS, type SmsGateway } from './providers/sms.js';
import { gatewaySms } from './modules/notifications/sms.js';
import { SMS_SIMULATOR_PATH } from './sandbox/sms-simulator.js';
import { createPaystackStyleAdapter, createProcessorRegistry, type ProcessorRegistry } from './providers/processor.js';

/**
 * The dependency container (STYLE rule 7). Each module adds its service here; handlers reach services
 * through ctx.services. Tests build it through buildApp with their own clock and database.
 */
export interface Services {
  config: Config;
  database: Database;
  db: Db;
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
  /** Step-up gate (DESIGN §5), provided by the two-factor module. */
  stepUp?: { require(user: import('./kernel/actor.js').AuthUser, grantToken: string | undefined): Promise<void> };
}

export interface ServiceOverrides {
  mailer?: Mailer;
  sms?: SmsSender;
  push?: PushSender;
  /** DNS for push endpoints (tests control it). */
  resolver?: Resolver;
}

export async function createServices(
  base: { config: Config; database: Database; clock: Clock; log: Logger },
  overrides: ServiceOverrides = {},
): Promise<Services> {
  const { config, database, clock, log } = base;
  armFaultPoint(config.faultPoint);
  const db = database.db;
  const ledger = createLedger({ clock });
  const jobs = new JobQueue(db, clock, log);
  const mailer =
    overrides.mailer ??
    (config.mail.smtpUrl ? smtpMailer(config.mail.smtpUrl, config.mail.from) : capturingMailer(db, clock, config.mail.from));
  const upstream = createLoopbackTransport(config.publicUrl);
  const smsGateway = config.sms.provider
    ? createSmsGateway(config.sms.provider, {
        ...config.sms,
        baseUrl:
          config.sms.baseUrl ??
          (config.sandbox ? `${config.publicUrl}${SMS_SIMULATOR_PATH}/${config.sms.provider}` : SMS_DEFAULT_BASE_URLS[config.sms.provider]),
        transport: upstream.send,
        timeoutMs: 10_000,
      })
    : null;
  // Development without a gateway captures messages in the database (production refuses to start without one).
  const sms = overrides.sms ?? (smsGateway ? gatewaySms(db, clock, smsGateway, countSmsSend) : capturingSms(db, clock));
  const tokens = await createTokenService(config, clock);
  const otp = createOtpService({ db, clock, pepper: config.secrets.pinPepper });
  const pins = createPinService({ db, clock, pepper: config.secrets.pinPepper });
  const events = new EventBus();
  const sessionCache = createSessionCache(clock);
  const authChanges = await database.subscribe('auth_changed', {
    message: (userId) => sessionCache.forgetUser(userId),
    reset: () => sessionCache.reset(),
  });
  sessionCache.attach(authChanges.live);
  const identity = createIdentityService({
    sessionCache,
    db,
    clock,
    config,
    tokens,
    otp,
    mailer,
    onSignup: (tx, userId, referralCode) => events.emit(tx, 'user.created', { userId, referralCode }),
  });
  const wallet = createWalletService({ db, ledger });
  const walletLimits = createWalletLimits({ clock, limits: parseTierLimits(config.tierLimitsJson) });
  const notifier = createNotifier({ clock, jobs });
  const outbox = createOutbox({ jobs });
  // Push endpoints: resolved and checked public when saved and again at delivery.
  const resolver = overrides.resolver ?? systemResolver;
  const push =
    overrides.push ??
    createPushSender(loadVapidKeys(config), {
      policy: {
        resolver,
        allowedHosts: config.pushAllowedHosts,
        loopbackAllowed: config.sandbox ? (host) => SANDBOX_LOOPBACK_NAMES.has(host) : undefined,
      },
    });
  const notifications = createNotificationsService({ db, clock, config, resolver });
  const security = createSecurityService({
    db,
    clock,
    pepper: config.secrets.pinPepper,
    encryptionKey: config.secrets.dataEncryptionKey,
    totpIssuer: config.totpIssuer,
    otp,
    pins,
    identity,
    mailer,
    sms,
    log,
    notifier,
    publicUrl: config.publicUrl,
  });
  const stepUp = security.twoFactor.stepUp;
  const settings = createSettingsService({
    db,
    clock,
    pins,
    ledger,
    notifier,
    events,
    reauth: security.twoFactor.reauth,
    notices: security.notices,
    forgetUser: identity.forgetUser,
  });

  const marketplace = createMarketplaceService({ db, clock, ledger, walletLimits, notifier });
  const subscriptions = createSubscriptionService({ db, clock, ledger, walletLimits, notifier });
  const support = createSupportService({ db, clock, notifier });
  const reports = createReportsService({ db, clock, notifier, ipSalt: config.secrets.fileSigningSecret });
  const receipts = createReceiptService({ db, clock, key: loadReceiptKey(config), issuer: config.publicUrl });
  // Scheduled runs buy through the VTU purchase path (created below), reached lazily.
  const schedules = createScheduleService({ db, clock, log, notifier, jobs, vtu: () => vtu });
  // Simulators are wired in by configuration only (STYLE rule 12).
  const identityLookups = config.sandbox ? createSimulatedIdentityProvider({ db, clock }) : createHttpIdentityProvider(config.identity);
  const kyc = createKycService({
    db,
    clock,
    config,
    log,
    identity: identityLookups,
    storage: createStorage(config),
    events,
    notifier,
    forgetUser: identity.forgetUser,
  });
  const growthArea = createGrowthArea({ db, clock, ledger, events, notifier, jobs, log, walletLimits });
  const growthSettingsChanges = await database.subscribe(GROWTH_SETTINGS_CHANNEL, {
    message: () => growthArea.growthSettings.forget(),
    reset: () => growthArea.growthSettings.forget(),
  });
  growthArea.growthSettings.attach(growthSettingsChanges.live);

  const processors = createProcessorRegistry(
    [
      createPaystackStyleAdapter({
        id: config.processor.default,
        baseUrl: config.processor.baseUrl ?? `${config.publicUrl}/sandbox/processor/api`,
        secretKey: config.processor.secretKey,
        transport: upstream.send,
      }),
    ],
    config.processor.default,
  );
  const payments = createPaymentsService({ db, clock, config, ledger, jobs, events, notifier, walletLimits, processors, log });
  const walletMoney = createWalletMoney({ db, clock, ledger, walletLimits, events, notifier });
  const vtuProviders = createVtuProviders(config.vtu.providers, config.vtu.timeoutMs, new VtuTransport(upstream.send));
  const vtu = createVtuService({ config, db, clock, log, ledger, walletLimits, notifier, events, jobs, providers: vtuProviders });

  return {
    authChanges,
    growthSettingsChanges,
    vtu,
    walletMoney,
    payments,
    processors,
    upstream,
    smsGateway,
    kyc,
    config,
    database,
    db,
    clock,
    log,
    ledger,
    jobs,
    mailer,
    sms,
    tokens,
    otp,
    pins,
    identity,
    wallet,
    walletLimits,
    notifier,
    events,
    security,
    settings,
    stepUp,
    marketplace,
    subscriptions,
    support,
    reports,
    receipts,
    schedules,
    outbox,
    push,
    notifications,
    ...growthArea,
  };
}
