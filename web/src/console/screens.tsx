import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ScreenProps } from './nav';
import { mayCall, type AdminOperation } from './roles';

/**
 * The console's screens: the address's first part after /console/ names one, and each is its own chunk. `rest` is
 * what follows the screen's name in the address (an id).
 */
interface Screen {
  title: string;
  group: 'Overview' | 'Customers' | 'Money' | 'Catalogue' | 'Engagement' | 'System';
  component: LazyExoticComponent<ComponentType<ScreenProps>>;
  /** The operation whose answer the screen shows: the screen opens for an operator who may call it (the generated roles). */
  reads: AdminOperation;
}

/** Whether an operator with these roles opens the screen (the navigation hides the others; the service still refuses). */
export const screenOpen = (screen: Screen, roles: readonly string[]) => mayCall(roles, screen.reads);

const load = <M extends Record<string, unknown>>(imp: () => Promise<M>, name: keyof M) =>
  lazy(() => imp().then((m) => ({ default: m[name] as ComponentType<ScreenProps> })));

export const SCREENS: Record<string, Screen> = {
  '': {
    title: 'Dashboard',
    group: 'Overview',
    component: load(() => import('./screens/Dashboard'), 'Dashboard'),
    reads: 'adminDashboardQueues',
  },
  customers: {
    title: 'Customers',
    group: 'Customers',
    component: load(() => import('./screens/Customers'), 'Customers'),
    reads: 'adminSearchCustomers',
  },
  kyc: {
    title: 'KYC queue',
    group: 'Customers',
    component: load(() => import('./screens/KycQueue'), 'KycQueue'),
    reads: 'adminListKycSubmissions',
  },
  approvals: {
    title: 'Approvals',
    group: 'Money',
    component: load(() => import('./screens/Approvals'), 'Approvals'),
    reads: 'adminListApprovals',
  },
  transactions: {
    title: 'Transactions',
    group: 'Money',
    component: load(() => import('./screens/Transactions'), 'Transactions'),
    reads: 'adminSearchTransactions',
  },
  'airtime-cash': {
    title: 'Airtime to cash',
    group: 'Money',
    component: load(() => import('./screens/AirtimeCash'), 'AirtimeCash'),
    reads: 'adminListAirtimeCashRequests',
  },
  profit: {
    title: 'Profit',
    group: 'Money',
    component: load(() => import('./screens/Profit'), 'Profit'),
    reads: 'adminProfit',
  },
  topups: { title: 'Top-ups', group: 'Money', component: load(() => import('./screens/TopUps'), 'TopUps'), reads: 'adminSearchPayments' },
  withdrawals: {
    title: 'Withdrawals',
    group: 'Money',
    component: load(() => import('./screens/Withdrawals'), 'Withdrawals'),
    reads: 'adminListWithdrawals',
  },
  catalogue: {
    title: 'Catalogue and pricing',
    group: 'Catalogue',
    component: load(() => import('./screens/Catalogue'), 'Catalogue'),
    reads: 'adminCatalogue',
  },
  resellers: {
    title: 'Resellers',
    group: 'Customers',
    component: load(() => import('./screens/Resellers'), 'Resellers'),
    reads: 'adminListResellers',
  },
  shop: {
    title: 'Marketplace and subscriptions',
    group: 'Catalogue',
    component: load(() => import('./screens/Shop'), 'Shop'),
    reads: 'adminListMarketplaceOrders',
  },
  growth: {
    title: 'Growth settings',
    group: 'Catalogue',
    component: load(() => import('./screens/Growth'), 'Growth'),
    reads: 'adminGetGrowthSettings',
  },
  broadcasts: {
    title: 'Broadcasts and polls',
    group: 'Engagement',
    component: load(() => import('./screens/Broadcasts'), 'Broadcasts'),
    reads: 'adminListBroadcasts',
  },
  support: {
    title: 'Support inbox',
    group: 'Engagement',
    component: load(() => import('./screens/Support'), 'Support'),
    reads: 'adminListSupportThreads',
  },
  reports: {
    title: 'Reports',
    group: 'Engagement',
    component: load(() => import('./screens/Reports'), 'Reports'),
    reads: 'adminListTransactionReports',
  },
  exports: {
    title: 'Exports and jobs',
    group: 'Money',
    component: load(() => import('./screens/Exports'), 'Exports'),
    reads: 'adminListJobs',
  },
  operators: {
    title: 'Operators',
    group: 'System',
    component: load(() => import('./screens/Operators'), 'Operators'),
    reads: 'adminListPasskeys',
  },
  audit: { title: 'Audit log', group: 'System', component: load(() => import('./screens/Audit'), 'Audit'), reads: 'adminSearchAudit' },
  templates: {
    title: 'Message templates',
    group: 'Engagement',
    component: load(() => import('./screens/Templates'), 'Templates'),
    reads: 'adminListMessageTemplates',
  },
  'dead-letters': {
    title: 'Dead letters',
    group: 'System',
    component: load(() => import('./screens/DeadLetters'), 'DeadLetters'),
    reads: 'adminListDeadLetters',
  },
};
