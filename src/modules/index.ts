import type { AnyOperation } from '../http/registry.js';
import { identityOperations } from './identity/operations.js';
import { walletOperations } from './wallet/operations.js';
import { securityOperations } from './security/operations.js';
import { settingsOperations } from './settings/operations.js';
import { marketplaceOperations } from './marketplace/operations.js';
import { subscriptionOperations } from './subscriptions/operations.js';

/** Every operation of the service. A module adds its list here. */
export const allOperations: AnyOperation[] = [...identityOperations, ...walletOperations, ...securityOperations, ...settingsOperations, ...marketplaceOperations, ...subscriptionOperations];
