import { useParams } from '@tanstack/react-router';
import type { ComponentType } from 'react';
import type { CustomTypeOptions } from 'i18next';
import type { ConsolePath, ScreenPath } from './nav';
import { mayCall, type AdminOperation } from './roles';

/** The screens' strings (locales/console/screens.ts), as the typed i18n has them. */
type Strings = CustomTypeOptions['resources']['translation']['console']['screens'];

/**
 * The console's screens, one per route under /console (console/routes.tsx, where each has its typed query): the
 * navigation's title and group, and the operation whose answer the screen shows. Each screen is its own chunk.
 */
interface Screen {
  /** Its title under console.screens.titles (the navigation's label, the heading, the document's title). */
  title: keyof Strings['titles'];
  group: keyof Strings['groups'];
  /** The operation whose answer the screen shows: the screen opens for an operator who may call it (the generated roles). */
  reads: AdminOperation;
  load: () => Promise<ComponentType>;
}

/** Whether an operator with these roles opens the screen (the navigation hides the others; the service still refuses). */
export const screenOpen = (screen: Screen, roles: readonly string[]) => mayCall(roles, screen.reads);

/** Every route of the console has its entry (the type checks it), in the navigation's order within each group. */
export const SCREENS = {
  '/console/': {
    title: 'dashboard',
    group: 'overview',
    reads: 'adminDashboardQueues',
    load: () => import('./screens/Dashboard').then((m) => m.Dashboard),
  },
  '/console/customers': {
    title: 'customers',
    group: 'customers',
    reads: 'adminSearchCustomers',
    load: () => import('./screens/Customers').then((m) => m.Customers),
  },
  '/console/kyc': {
    title: 'kyc',
    group: 'customers',
    reads: 'adminListKycSubmissions',
    load: () => import('./screens/KycQueue').then((m) => m.KycQueue),
  },
  '/console/approvals': {
    title: 'approvals',
    group: 'money',
    reads: 'adminListApprovals',
    load: () => import('./screens/Approvals').then((m) => m.Approvals),
  },
  '/console/transactions': {
    title: 'transactions',
    group: 'money',
    reads: 'adminSearchTransactions',
    load: () => import('./screens/Transactions').then((m) => m.Transactions),
  },
  '/console/airtime-cash': {
    title: 'airtimeCash',
    group: 'money',
    reads: 'adminListAirtimeCashRequests',
    load: () => import('./screens/AirtimeCash').then((m) => m.AirtimeCash),
  },
  '/console/profit': {
    title: 'profit',
    group: 'money',
    reads: 'adminProfit',
    load: () => import('./screens/Profit').then((m) => m.Profit),
  },
  '/console/topups': {
    title: 'topups',
    group: 'money',
    reads: 'adminSearchPayments',
    load: () => import('./screens/TopUps').then((m) => m.TopUps),
  },
  '/console/withdrawals': {
    title: 'withdrawals',
    group: 'money',
    reads: 'adminListWithdrawals',
    load: () => import('./screens/Withdrawals').then((m) => m.Withdrawals),
  },
  '/console/catalogue': {
    title: 'catalogue',
    group: 'catalogue',
    reads: 'adminCatalogue',
    load: () => import('./screens/Catalogue').then((m) => m.Catalogue),
  },
  '/console/routing': {
    title: 'routing',
    group: 'catalogue',
    reads: 'adminGetRouting',
    load: () => import('./screens/Routing').then((m) => m.Routing),
  },
  '/console/resellers': {
    title: 'resellers',
    group: 'customers',
    reads: 'adminListResellers',
    load: () => import('./screens/Resellers').then((m) => m.Resellers),
  },
  '/console/shop': {
    title: 'shop',
    group: 'catalogue',
    reads: 'adminListMarketplaceOrders',
    load: () => import('./screens/Shop').then((m) => m.Shop),
  },
  '/console/growth': {
    title: 'growth',
    group: 'catalogue',
    reads: 'adminGetGrowthSettings',
    load: () => import('./screens/Growth').then((m) => m.Growth),
  },
  '/console/broadcasts': {
    title: 'broadcasts',
    group: 'engagement',
    reads: 'adminListBroadcasts',
    load: () => import('./screens/Broadcasts').then((m) => m.Broadcasts),
  },
  '/console/support': {
    title: 'support',
    group: 'engagement',
    reads: 'adminListSupportThreads',
    load: () => import('./screens/Support').then((m) => m.Support),
  },
  '/console/reports': {
    title: 'reports',
    group: 'engagement',
    reads: 'adminListTransactionReports',
    load: () => import('./screens/Reports').then((m) => m.Reports),
  },
  '/console/exports': {
    title: 'exports',
    group: 'money',
    reads: 'adminListJobs',
    load: () => import('./screens/Exports').then((m) => m.Exports),
  },
  '/console/operators': {
    title: 'operators',
    group: 'system',
    reads: 'adminListPasskeys',
    load: () => import('./screens/Operators').then((m) => m.Operators),
  },
  '/console/audit': {
    title: 'audit',
    group: 'system',
    reads: 'adminSearchAudit',
    load: () => import('./screens/Audit').then((m) => m.Audit),
  },
  '/console/templates': {
    title: 'templates',
    group: 'engagement',
    reads: 'adminListMessageTemplates',
    load: () => import('./screens/Templates').then((m) => m.Templates),
  },
  '/console/dead-letters': {
    title: 'deadLetters',
    group: 'system',
    reads: 'adminListDeadLetters',
    load: () => import('./screens/DeadLetters').then((m) => m.DeadLetters),
  },
} satisfies Record<ScreenPath, Screen>;

/** The screen an address belongs to: its own, or the screen it is a page of (a customer's page, Customers). */
export function screenOf(path: string | undefined): Screen | undefined {
  if (!path) return undefined;
  const all: Record<string, Screen> = SCREENS;
  return all[path] ?? all[path.slice(0, path.lastIndexOf('/'))];
}

/** A customer's page, its id from the address. */
const withUserId = (Page: ComponentType<{ userId: string }>) =>
  function CustomerById() {
    const { userId } = useParams({ from: '/console/customers/$userId' });
    return <Page userId={userId} />;
  };

/** The pages below a screen (an id in the address). */
const PAGES: Record<Exclude<ConsolePath, ScreenPath>, () => Promise<ComponentType>> = {
  '/console/customers/$userId': () => import('./screens/Customer').then((m) => withUserId(m.CustomerPage)),
};

/** A console route's component (routes.tsx loads it with its route). */
export function loadScreen(path: string): Promise<{ default: ComponentType }> {
  const load = (SCREENS as Record<string, Screen>)[path]?.load ?? (PAGES as Record<string, () => Promise<ComponentType>>)[path]!;
  return load().then((c) => ({ default: c }));
}
