import type { AnyModule } from '../platform/module.js';
import type { AnyOperation } from '../platform/operation.js';
import { kycModule } from './kyc/index.js';
import { identityModule } from './identity/index.js';
import { walletModule } from './wallet/index.js';
import { notificationsModule } from './notifications/index.js';
import { securityModule } from './security/index.js';
import { settingsModule } from './settings/index.js';
import { marketplaceModule } from './marketplace/index.js';
import { subscriptionsModule } from './subscriptions/index.js';
import { supportModule } from './support/index.js';
import { reportsModule } from './reports/index.js';
import { receiptsModule } from './receipts/index.js';
import { schedulesModule } from './schedules/index.js';
import { growthModule } from './growth/index.js';
import { savingsModule } from './savings/index.js';
import { loansModule } from './loans/index.js';
import { paymentsModule } from './payments/index.js';
import { vtuModule } from './vtu/index.js';
import { airtimeCashModule } from './vtu/kinds/airtime-cash/index.js';
import { beneficiariesModule } from './beneficiaries/index.js';
import { operatorsModule } from './operators/index.js';
import { consoleModule } from './console/index.js';
import { customersModule } from './customers/index.js';
import { approvalsModule } from './approvals/index.js';
import { developersModule } from './developers/index.js';
import { ussdModule } from './ussd/index.js';
import { whatsappModule } from './whatsapp/index.js';
import { epinsModule } from './epins/index.js';

/**
 * Every module of the service, by its entry file. A new module adds one line here; a new operation, job or route
 * of a module touches that module alone. The composition root (services.ts, http/app.ts) registers what is listed.
 */
export const allModules: AnyModule[] = [
  kycModule,
  identityModule,
  walletModule,
  notificationsModule,
  securityModule,
  settingsModule,
  marketplaceModule,
  subscriptionsModule,
  supportModule,
  reportsModule,
  receiptsModule,
  schedulesModule,
  growthModule,
  savingsModule,
  loansModule,
  paymentsModule,
  vtuModule,
  airtimeCashModule,
  beneficiariesModule,
  operatorsModule,
  consoleModule,
  customersModule,
  approvalsModule,
  developersModule,
  ussdModule,
  whatsappModule,
  epinsModule,
];

export const allOperations: AnyOperation[] = allModules.flatMap((m) => m.operations);
