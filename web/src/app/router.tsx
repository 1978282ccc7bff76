import { createRoute, createRouter, lazyRouteComponent } from '@tanstack/react-router';
import { consoleTree } from '../console/routes';
import type { BuyService } from './kinds';
import { NotFound } from './NotFound';
import { rootRoute, withStyles } from './root-route';
import { PageError, RouteError } from './RouteError';
import { Shell } from './Shell';

/**
 * Typed routes, code-split per area (each screen is its own chunk). Every route has an errorComponent: RouteError
 * (the router's default) inside the signed-in shell and the console's frame, PageError (with its own main landmark)
 * outside them. Unknown addresses get one not-found page (the console's own under /console).
 */
const appRoute = createRoute({ getParentRoute: () => rootRoute, id: 'app', component: Shell });

function screen<const P extends string, M extends Record<string, unknown>>(path: P, load: () => Promise<M>, name: keyof M & string) {
  return createRoute({
    getParentRoute: () => appRoute,
    path,
    component: lazyRouteComponent((path === '/' ? load : withStyles(load)) as never, name as never),
  });
}

const routes = [
  screen('/', () => import('../features/home/Home'), 'Home'),
  screen('/fund', () => import('../features/wallet/Fund'), 'Fund'),
  screen('/fund/return', () => import('../features/wallet/FundReturn'), 'FundReturn'),
  screen('/transfer', () => import('../features/wallet/Transfer'), 'Transfer'),
  screen('/withdraw', () => import('../features/wallet/Withdraw'), 'Withdraw'),
  createRoute({
    getParentRoute: () => appRoute,
    path: '/buy',
    // The tabs are the kinds' (app/buy-services.ts, loaded with the screen, not here): the buy screen opens its first
    // tab for a service it does not have.
    validateSearch: (s: Record<string, unknown>): { service?: BuyService } =>
      typeof s.service === 'string' && s.service !== '' ? { service: s.service as BuyService } : {},
    component: lazyRouteComponent(
      // The kinds' strings (issue 32's buy screens) come with the buy screen, not with the first screens.
      withStyles(() => Promise.all([import('../features/buy/Buy'), import('./i18n').then((m) => m.loadKindStrings())]).then(([m]) => m)),
      'Buy',
    ),
  }),
  // A kind's part of the result (its Result) may use its strings: they come with this screen too.
  screen(
    '/buy/result/$id',
    () => Promise.all([import('../features/buy/PurchaseResult'), import('./i18n').then((m) => m.loadKindStrings())]).then(([m]) => m),
    'PurchaseResultScreen',
  ),
  screen('/transactions', () => import('../features/transactions/Transactions'), 'Transactions'),
  screen('/transactions/$reference', () => import('../features/transactions/TransactionDetail'), 'TransactionDetail'),
  screen('/kyc', () => import('../features/kyc/Kyc'), 'Kyc'),
  screen('/notifications', () => import('../features/notifications/Inbox'), 'Inbox'),
  screen('/rewards', () => import('../features/growth/Rewards'), 'Rewards'),
  screen('/orders', () => import('../features/orders/Orders'), 'Orders'),
  screen('/settings', () => import('../features/settings/Settings'), 'Settings'),
  screen('/developers', () => import('../features/developers/Developers'), 'Developers'),
  screen('/recharge-cards', () => import('../features/epins/RechargeCards'), 'RechargeCards'),
  screen('/welcome', () => import('../features/onboarding/Welcome'), 'Welcome'),
] as const;

// The public receipt check needs no sign-in.
const receiptRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/receipt/$needle',
  component: lazyRouteComponent(
    withStyles(() => import('../features/transactions/ReceiptCheck')),
    'ReceiptCheck',
  ),
  errorComponent: PageError,
});

// A WhatsApp chat's PIN link (issue 46): no sign-in, the link's token is the credential.
const whatsappPinRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/whatsapp/pin/$token',
  component: lazyRouteComponent(
    withStyles(() => import('../features/whatsapp/PinPage')),
    'WhatsappPinPage',
  ),
  errorComponent: PageError,
});

const routeTree = rootRoute.addChildren([appRoute.addChildren(routes), receiptRoute, whatsappPinRoute, consoleTree]);

/**
 * The app's router. Made once, by routed.tsx, in a task of its own after the routes' chunk has loaded: making it (the
 * browser history, the route tree's matching data, the scroll positions kept in sessionStorage) was a long task
 * together with evaluating the chunk (Lighthouse's total blocking time, docs/scaling.md).
 */
export const createAppRouter = () =>
  createRouter({
    routeTree,
    defaultPreload: 'intent',
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: NotFound,
    // An unknown address renders at the root: one page, the same whether signed in or not.
    notFoundMode: 'root',
  });
export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
