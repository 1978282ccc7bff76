import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute, withStyles } from '../app/root-route';
import { PageError } from '../app/RouteError';
import { count, oneOf, searchOf, text, type Shape } from './search';

/**
 * The operator console's routes (issue #30; one typed route per screen, issue 44): /console is the frame (sign-in,
 * the operator check, the navigation; console/Console.tsx) and each screen a child route with its own typed query
 * (`validateSearch`). Only these definitions load with the app's routes; the frame, its strings and every screen are
 * chunks of their own, loaded under /console. A screen that fails shows the router's RouteError inside the frame; an
 * address the console does not have shows the console's not-found page, inside the frame too.
 */
export const consoleRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/console',
  component: lazyRouteComponent(
    withStyles(() => Promise.all([import('./Console'), import('../app/i18n').then((m) => m.loadConsoleStrings())]).then(([m]) => m)),
    'Console',
  ),
  errorComponent: PageError,
});

const page = { offset: count };

/**
 * A screen's route: its query's shape (the keys it reads from the address, each with its parser; none by default), and
 * its component from the console's screen table (console/screens.tsx), a chunk each.
 */
const screen = <P extends string, S extends Shape = Record<never, never>>(path: P, shape: S = {} as S) =>
  createRoute({
    getParentRoute: () => consoleRoute,
    path,
    validateSearch: searchOf(shape),
    component: lazyRouteComponent(() => import('./screens').then((m) => m.loadScreen(`/console${path}`))),
  });

export const consoleTree = consoleRoute.addChildren([
  screen('/', { from: text, to: text }),
  screen('/customers', { q: text, sort: text, ...page }),
  screen('/customers/$userId'),
  screen('/kyc', { status: oneOf('pending', 'approved', 'rejected'), tier: oneOf('1', '2', '3'), id: text, sort: text, ...page }),
  screen('/approvals', { status: oneOf('pending', 'approved', 'rejected', 'expired'), sort: text, ...page }),
  screen('/transactions', {
    view: oneOf('stuck'),
    ...page,
    t_reference: text,
    t_phone: text,
    t_email: text,
    t_status: text,
    t_service: text,
    t_channel: text,
    t_from: text,
    t_to: text,
    t_sort: text,
    t_offset: count,
  }),
  screen('/airtime-cash', { show: oneOf('stuck', 'awaiting', 'credited', 'expired', 'failed'), ...page }),
  screen('/profit', { from: text, to: text, service: text, level: text }),
  screen('/topups', {
    kind: oneOf('intents', 'settlements', 'events'),
    reference: text,
    email: text,
    status: text,
    flagged: oneOf('true', 'false'),
    paid: oneOf('different'),
    sort: text,
    ...page,
  }),
  screen('/withdrawals', { show: oneOf('stuck', 'pending', 'success', 'failed', 'reversed'), ...page }),
  screen('/catalogue', { section: oneOf('floats') }),
  screen('/routing'),
  screen('/resellers', page),
  screen('/shop', {
    tab: oneOf('orders', 'products', 'subscriptions', 'plans'),
    status: oneOf('pending', 'processing', 'fulfilled', 'failed', 'cancelled'),
    ...page,
  }),
  screen('/growth'),
  screen('/broadcasts', { status: oneOf('scheduled', 'active', 'ended'), ...page }),
  screen('/support', {
    status: oneOf('open', 'closed'),
    awaiting: oneOf('true', 'false'),
    thread: text,
    customer: text,
    sort: text,
    ...page,
  }),
  screen('/reports', { tab: oneOf('transactions', 'issues'), status: oneOf('open', 'resolved'), ...page }),
  screen('/exports', { kind: oneOf('reconciliation', 'bulk_requery', 'export'), ...page }),
  screen('/operators'),
  screen('/audit', { operator: text, operation: text, target: text, words: text, from: text, to: text, cursor: text }),
  screen('/templates', { lang: oneOf('en', 'ha', 'pcm', 'yo'), key: text }),
  screen('/dead-letters', { channel: oneOf('email', 'sms', 'push', 'job'), sort: text, ...page }),
  // Any other address under /console: the console's not-found page, in the frame. Not a link's target, and kept out
  // of the route types (`never`): a splat here turns the registered routes' types to `any` under TypeScript 7.
  createRoute({
    getParentRoute: () => consoleRoute,
    path: '$',
    component: lazyRouteComponent(() => import('./Console'), 'ConsoleNotFound'),
  }) as never,
]);
