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
}

const load = <M extends Record<string, unknown>>(imp: () => Promise<M>, name: keyof M) =>
  lazy(() => imp().then((m) => ({ default: m[name] as ComponentType<ScreenProps> })));

export const SCREENS: Record<string, Screen> = {
  '': { title: 'Dashboard', group: 'Overview', component: load(() => import('./screens/Dashboard'), 'Dashboard') },
  customers: { title: 'Customers', group: 'Customers', component: load(() => import('./screens/Customers'), 'Customers') },
  kyc: { title: 'KYC queue', group: 'Customers', component: load(() => import('./screens/KycQueue'), 'KycQueue') },
  approvals: { title: 'Approvals', group: 'Money', component: load(() => import('./screens/Approvals'), 'Approvals') },
  transactions: { title: 'Transactions', group: 'Money', component: load(() => import('./screens/Transactions'), 'Transactions') },
  topups: { title: 'Top-ups', group: 'Money', component: load(() => import('./screens/TopUps'), 'TopUps') },
  catalogue: { title: 'Catalogue and pricing', group: 'Catalogue', component: load(() => import('./screens/Catalogue'), 'Catalogue') },
  shop: { title: 'Marketplace and subscriptions', group: 'Catalogue', component: load(() => import('./screens/Shop'), 'Shop') },
  growth: { title: 'Growth settings', group: 'Catalogue', component: load(() => import('./screens/Growth'), 'Growth') },
  broadcasts: { title: 'Broadcasts and polls', group: 'Engagement', component: load(() => import('./screens/Broadcasts'), 'Broadcasts') },
  support: { title: 'Support inbox', group: 'Engagement', component: load(() => import('./screens/Support'), 'Support') },
  reports: { title: 'Reports', group: 'Engagement', component: load(() => import('./screens/Reports'), 'Reports') },
  exports: { title: 'Exports and jobs', group: 'Money', component: load(() => import('./screens/Exports'), 'Exports') },
  operators: { title: 'Operators', group: 'System', component: load(() => import('./screens/Operators'), 'Operators') },
  audit: { title: 'Audit log', group: 'System', component: load(() => import('./screens/Audit'), 'Audit') },
  'dead-letters': { title: 'Dead letters', group: 'System', component: load(() => import('./screens/DeadLetters'), 'DeadLetters') },
};
