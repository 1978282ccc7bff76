import type { Db, Executor } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { Clock } from '../../lib/clock.js';
import type { DomainEvents, EventBus, EventName } from '../../lib/events.js';
import type { Logger } from '../../lib/logger.js';
import type { Notifier } from '../notifications/notifier.js';
import type { WalletLimits } from '../wallet/limits.js';
import { createLoanService, type LoanService } from '../loans/service.js';
import { createSavingsService, type SavingsService } from '../savings/service.js';
import { createGrowthService, type GrowthService } from './service.js';
import { createSettingsStore, type GrowthSettingsStore } from './settings.js';
import { asTx } from './accounts.js';

export interface GrowthArea {
  growthSettings: GrowthSettingsStore;
  growth: GrowthService;
  savings: SavingsService;
  loans: LoanService;
}

/** Creates the growth, savings and loan services and subscribes them to the domain events they react to. */
export function createGrowthArea(deps: { db: Db; clock: Clock; ledger: Ledger; events: EventBus; notifier: Notifier; jobs: JobQueue; log: Logger; walletLimits: WalletLimits }): GrowthArea {
  const growthSettings = createSettingsStore(deps);
  const growth = createGrowthService({ ...deps, settings: growthSettings });
  const savings = createSavingsService({ ...deps, settings: growthSettings });
  const loans = createLoanService({ ...deps, settings: growthSettings });
  // Each subscriber runs in a savepoint: a fault in a bonus or an auto-repayment is logged and undone on its
  // own, and never rolls back the sign-up, delivered purchase or credit that emitted the event.
  // `applies` (optional) is a read-only check outside the savepoint: when it says no, the savepoint's two round
  // trips inside the emitter's transaction are skipped (issue 11: every transfer and top-up credit emits).
  const isolated =
    <E extends EventName>(name: E, fn: (exec: Executor, e: DomainEvents[E]) => Promise<void>, applies?: (exec: Executor, e: DomainEvents[E]) => Promise<boolean>) =>
    async (exec: Executor, e: DomainEvents[E]) => {
      if (applies && !(await applies(exec, e))) return;
      try {
        await asTx(exec).transaction((sp) => fn(sp, e));
      } catch (err) {
        deps.log.error({ err, event: name, userId: e.userId }, 'growth subscriber failed; the emitting change is kept');
      }
    };
  deps.events.on('user.created', isolated('user.created', (tx, e) => growth.onUserCreated(tx, e)));
  deps.events.on('vtu.succeeded', isolated('vtu.succeeded', (tx, e) => growth.onVtuSucceeded(tx, e)));
  deps.events.on('wallet.credited', isolated('wallet.credited', (tx, e) => loans.onWalletCredited(tx, e), (exec, e) => loans.hasOpenLoan(exec, e.userId)));
  deps.events.on('account.closed', isolated('account.closed', (tx, e) => growth.onAccountClosed(tx, e)));
  return { growthSettings, growth, savings, loans };
}
