import { Outlet, createRootRoute, createRoute, createRouter, lazyRouteComponent } from '@tanstack/react-router';
import { Shell } from './Shell';

// The services a purchase screen offers (kept here so the route's search is typed without loading the screen).
export const BUY_SERVICES = ['airtime', 'data', 'cable', 'electricity', 'betting', 'exam'] as const;
export type BuyService = (typeof BUY_SERVICES)[number];

/** Typed routes, code-split per area (each screen is its own chunk). */
const rootRoute = createRootRoute({ component: () => <Outlet /> });
const appRoute = createRoute({ getParentRoute: () => rootRoute, id: 'app', component: Shell });

function screen<const P extends string, M extends Record<string, unknown>>(path: P, load: () => Promise<M>, name: keyof M & string) {
  return createRoute({ getParentRoute: () => appRoute, path, component: lazyRouteComponent(load as never, name as never) });
}

const routes = [
  screen('/', () => import('../features/home/Home'), 'Home'),
  screen('/fund', () => import('../features/wallet/Fund'), 'Fund'),
  screen('/fund/return', () => import('../features/wallet/FundReturn'), 'FundReturn'),
  screen('/transfer', () => import('../features/wallet/Transfer'), 'Transfer'),
  createRoute({
    getParentRoute: () => appRoute,
    path: '/buy',
    validateSearch: (s: Record<string, unknown>): { service?: BuyService } =>
      BUY_SERVICES.includes(s.service as BuyService) ? { service: s.service as BuyService } : {},
    component: lazyRouteComponent(() => import('../features/buy/Buy'), 'Buy'),
  }),
  screen('/buy/result/$id', () => import('../features/buy/PurchaseResult'), 'PurchaseResultScreen'),
  screen('/transactions', () => import('../features/transactions/Transactions'), 'Transactions'),
  screen('/transactions/$reference', () => import('../features/transactions/TransactionDetail'), 'TransactionDetail'),
  screen('/kyc', () => import('../features/kyc/Kyc'), 'Kyc'),
  screen('/notifications', () => import('../features/notifications/Inbox'), 'Inbox'),
  screen('/rewards', () => import('../features/growth/Rewards'), 'Rewards'),
  screen('/orders', () => import('../features/orders/Orders'), 'Orders'),
  screen('/settings', () => import('../features/settings/Settings'), 'Settings'),
  screen('/welcome', () => import('../features/onboarding/Welcome'), 'Welcome'),
] as const;

// The public receipt check needs no sign-in.
const receiptRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/receipt/$needle',
  component: lazyRouteComponent(() => import('../features/transactions/ReceiptCheck'), 'ReceiptCheck'),
});

const routeTree = rootRoute.addChildren([appRoute.addChildren(routes), receiptRoute]);
export const router = createRouter({ routeTree, defaultPreload: 'intent' });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
