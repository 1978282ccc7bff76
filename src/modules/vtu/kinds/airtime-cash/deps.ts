import type { Config } from '../../../../config.js';
import type { Db } from '../../../../db/client.js';
import type { ReadReplica } from '../../../../db/replica.js';
import type { Clock } from '../../../../kernel/clock.js';
import type { Logger } from '../../../../lib/logger.js';
import type { Work } from '../../../../platform/change.js';
import type { SmsSender } from '../../../../providers/messaging.js';
import type { OtpService } from '../../../identity/api.js';
import type { WalletLimits } from '../../../wallet/api.js';
import type { AirtimeCashProvider, ReceiptStatus } from './adapter.js';
import type { AirtimeCashRow } from './repository.js';
import type { AirtimeCashProviderId } from './routing.js';

export interface AirtimeCashDeps {
  config: Config;
  db: Db;
  replica: ReadReplica;
  clock: Clock;
  log: Logger;
  work: Work;
  otp: OtpService;
  sms: SmsSender;
  /** The adapter of each provider that has one. */
  providers: Record<AirtimeCashProviderId, AirtimeCashProvider>;
  /** Where requests go, in order (only the first is asked: docs/decisions.md). */
  routing: AirtimeCashProviderId[];
  walletLimits: WalletLimits;
}

/** What the settlement (credit.ts, receipt.ts) uses. */
export type AirtimeCashSettlementDeps = Pick<AirtimeCashDeps, 'config' | 'db' | 'clock' | 'log' | 'work'>;

/** What the use cases use: the module's dependencies and the settlement's transitions (settlement.ts). */
export interface AirtimeCashUseDeps extends AirtimeCashDeps {
  /** Applies what the provider says of a request; returns the provider's status as recorded. */
  apply: (row: AirtimeCashRow, r: ReceiptStatus) => Promise<string>;
  /** Closes an awaiting request with nothing credited, and tells the customer why. */
  close: (row: AirtimeCashRow, to: 'expired' | 'failed', reason: string, providerStatus: string) => Promise<void>;
}
