import type { AnyOperation } from '../http/registry.js';
import { identityOperations } from './identity/operations.js';
import { walletOperations } from './wallet/operations.js';
import { paymentsOperations } from './payments/operations.js';
import { notificationsOperations } from './notifications/operations.js';
import { securityOperations } from './security/operations.js';
import { settingsOperations } from './settings/operations.js';
import { marketplaceOperations } from './marketplace/operations.js';
import { subscriptionOperations } from './subscriptions/operations.js';
import { supportOperations } from './support/operations.js';
import { reportOperations } from './reports/operations.js';
import { receiptOperations } from './receipts/operations.js';
import { scheduleOperations } from './schedules/operations.js';
import { kycOperations } from './kyc/operations.js';
import { growthOperations } from './growth/operations.js';
import { savingsOperations } from './savings/operations.js';
import { loanOperations } from './loans/operations.js';
import { vtuOperations } from './vtu/operations.js';

/** Every operation of the service. A module adds its list here. */
export const allOperations: AnyOperation[] = [
  ...kycOperations,
  ...identityOperations,
  ...walletOperations,
  ...notificationsOperations,
  ...securityOperations,
  ...settingsOperations,
  ...marketplaceOperations,
  ...subscriptionOperations,
  ...supportOperations,
  ...reportOperations,
  ...receiptOperations,
  ...scheduleOperations,
  ...growthOperations,
  ...savingsOperations,
  ...loanOperations,
  ...paymentsOperations,
  ...vtuOperations,
];
