import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ScreenProps } from './nav';

/**
 * The console's screens: the address's first part after /console/ names one, and each is its own chunk. `rest` is
 * what follows the screen's name in the address (an id).
 */
interface Screen {
  title: string;
  group: 'Overview' | 'Customers' | 'Money' | 'Catalogue' | 'Engagement' | 'System';
  component: LazyExoticComponent<ComponentType<ScreenProps>>;
  /** The operator roles besides admin whose operations the screen reads (the service's `roles`); admin sees all. */
  roles: readonly ('finance' | 'support')[];
}

const BOTH = ['finance', 'support'] as const;
const FINANCE = ['finance'] as const;
const SUPPORT = ['support'] as const;
const ADMIN = [] as const;

/** Whether an operator with these roles opens the screen (the navigation hides the others; the service still refuses). */
export const screenOpen = (screen: Screen, roles: readonly string[]) =>
  roles.includes('admin') || screen.roles.some((r) => roles.includes(r));

const load = <M extends Record<string, unknown>>(imp: () => Promise<M>, name: keyof M) =>
  lazy(() => imp().then((m) => ({ default: m[name] as ComponentType<ScreenProps> })));

export const SCREENS: Record<string, Screen> = {
  '': { title: 'Dashboard', group: 'Overview', component: load(() => import('./screens/Dashboard'), 'Dashboard'), roles: BOTH },
  customers: { title: 'Customers', group: 'Customers', component: load(() => import('./screens/Customers'), 'Customers'), roles: SUPPORT },
  kyc: { title: 'KYC queue', group: 'Customers', component: load(() => import('./screens/KycQueue'), 'KycQueue'), roles: SUPPORT },
  approvals: { title: 'Approvals', group: 'Money', component: load(() => import('./screens/Approvals'), 'Approvals'), roles: FINANCE },
  transactions: {
    title: 'Transactions',
    group: 'Money',
    component: load(() => import('./screens/Transactions'), 'Transactions'),
    roles: BOTH,
  },
  'airtime-cash': {
    title: 'Airtime to cash',
    group: 'Money',
    component: load(() => import('./screens/AirtimeCash'), 'AirtimeCash'),
    roles: BOTH,
  },
  topups: { title: 'Top-ups', group: 'Money', component: load(() => import('./screens/TopUps'), 'TopUps'), roles: BOTH },
  catalogue: {
    title: 'Catalogue and pricing',
    group: 'Catalogue',
    component: load(() => import('./screens/Catalogue'), 'Catalogue'),
    roles: FINANCE,
  },
  shop: {
    title: 'Marketplace and subscriptions',
    group: 'Catalogue',
    component: load(() => import('./screens/Shop'), 'Shop'),
    roles: BOTH,
  },
  growth: { title: 'Growth settings', group: 'Catalogue', component: load(() => import('./screens/Growth'), 'Growth'), roles: ADMIN },
  broadcasts: {
    title: 'Broadcasts and polls',
    group: 'Engagement',
    component: load(() => import('./screens/Broadcasts'), 'Broadcasts'),
    roles: SUPPORT,
  },
  support: { title: 'Support inbox', group: 'Engagement', component: load(() => import('./screens/Support'), 'Support'), roles: SUPPORT },
  reports: { title: 'Reports', group: 'Engagement', component: load(() => import('./screens/Reports'), 'Reports'), roles: BOTH },
  exports: { title: 'Exports and jobs', group: 'Money', component: load(() => import('./screens/Exports'), 'Exports'), roles: FINANCE },
  operators: { title: 'Operators', group: 'System', component: load(() => import('./screens/Operators'), 'Operators'), roles: BOTH },
  audit: { title: 'Audit log', group: 'System', component: load(() => import('./screens/Audit'), 'Audit'), roles: ADMIN },
  'dead-letters': {
    title: 'Dead letters',
    group: 'System',
    component: load(() => import('./screens/DeadLetters'), 'DeadLetters'),
    roles: ADMIN,
  },
};
