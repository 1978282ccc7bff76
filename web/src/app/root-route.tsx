import { Outlet, createRootRoute } from '@tanstack/react-router';
import { PageError } from './RouteError';

/** The route tree's root (router.tsx), apart so the console's routes (console/routes.tsx) hang under it without a cycle. */
export const rootRoute = createRootRoute({ component: () => <Outlet />, errorComponent: PageError });

/**
 * A screen's chunk with Mantine's whole stylesheet (mantine-styles.ts) and the later screens' strings (i18n.ts,
 * loadLaterStrings): the first screens (home here, sign-in and the shell in start.tsx) draw with the per-component
 * sheets start.tsx imports and the first screens' strings, every other screen with the whole sheet and all strings.
 */
export const withStyles =
  <M,>(load: () => Promise<M>) =>
  () =>
    Promise.all([load(), import('./mantine-styles'), import('./i18n').then((i) => i.loadLaterStrings())]).then(([m]) => m);
