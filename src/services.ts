import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { Clock } from './lib/clock.js';
import type { Logger } from './lib/logger.js';
import { createLedger, type Ledger } from './ledger/ledger.js';
import { JobQueue } from './jobs/queue.js';
import { capturingMailer, capturingSms, smtpMailer, type Mailer, type SmsSender } from './providers/messaging.js';
import { createTokenService, type TokenService } from './modules/identity/tokens.js';
import { createOtpService, type OtpService } from './modules/identity/otp.js';
import { createPinService, type PinService } from './modules/identity/pins.js';
import { createIdentityService, type IdentityService } from './modules/identity/service.js';
import { createWalletService, type WalletService } from './modules/wallet/service.js';
import { createWalletLimits, parseTierLimits, type WalletLimits } from './modules/wallet/limits.js';
import { createNotifier, type Notifier } from './modules/notifications/notifier.js';
import { EventBus } from './lib/events.js';
import { createSecurityService, type SecurityService } from './modules/security/service.js';
import { createSettingsService, type SettingsService } from './modules/settings/service.js';
import { createMarketplaceService, type MarketplaceService } from './modules/marketplace/service.js';
import { createSubscriptionService, type SubscriptionService } from './modules/subscriptions/service.js';

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
  notifier: Notifier;
  events: EventBus;
  security: SecurityService;
  settings: SettingsService;
  marketplace: MarketplaceService;
  subscriptions: SubscriptionService;
  /** Step-up gate (DESIGN §5), provided by the two-factor module. */
  stepUp?: { require(user: import('./http/registry.js').AuthUser, grantToken: string | undefined): Promise<void> };
}

export interface ServiceOverrides {
  mailer?: Mailer;
  sms?: SmsSender;
}

export async function createServices(base: { config: Config; database: Database; clock: Clock; log: Logger }, overrides: ServiceOverrides = {}): Promise<Services> {
  const { config, database, clock, log } = base;
  const db = database.db;
  const ledger = createLedger({ clock });
  const jobs = new JobQueue(db, clock, log);
  const mailer = overrides.mailer ?? (config.mail.smtpUrl ? smtpMailer(config.mail.smtpUrl, config.mail.from) : capturingMailer(db, clock, config.mail.from));
  const sms = overrides.sms ?? capturingSms(db, clock);
  const tokens = await createTokenService(config, clock);
  const otp = createOtpService({ db, clock, pepper: config.secrets.pinPepper });
  const pins = createPinService({ db, clock, pepper: config.secrets.pinPepper });
  const events = new EventBus();
  const identity = createIdentityService({
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
  const notifier = createNotifier({ clock });
  const security = createSecurityService({
    db, clock, pepper: config.secrets.pinPepper, encryptionKey: config.secrets.dataEncryptionKey, totpIssuer: config.totpIssuer,
    otp, pins, identity, mailer, sms, notifier,
  });
  const stepUp = security.twoFactor.stepUp;
  const settings = createSettingsService({ db, clock, pins, ledger, notifier, events, stepUp });

  const marketplace = createMarketplaceService({ db, clock, ledger, walletLimits, notifier });
  const subscriptions = createSubscriptionService({ db, clock, ledger, walletLimits, notifier });

  return { config, database, db, clock, log, ledger, jobs, mailer, sms, tokens, otp, pins, identity, wallet, walletLimits, notifier, events, security, settings, stepUp, marketplace, subscriptions };
}
