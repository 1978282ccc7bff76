import { Link, useNavigate, type RegisteredRouter, type RouteById, type RouteIds } from '@tanstack/react-router';
import { forwardRef, type AnchorHTMLAttributes } from 'react';

/**
 * Typed navigation inside the console: each screen is a route of its own (console/routes.tsx) with a typed query
 * (filters, page, selection), so a reload or a shared link shows the same. Screens read their query with the router's
 * `useSearch({ from: '/console/<screen>' })`; these helpers take a route's address and check the query against it.
 */
type Tree = RegisteredRouter['routeTree'];
/** Every console address (its routes' ids, which are their full paths: the console has no pathless route). */
export type ConsolePath = Extract<RouteIds<Tree>, `/console/${string}`>;
/** The screens' addresses: those without a part taken from the address (an id), and not the not-found catch-all. */
export type ScreenPath = Exclude<ConsolePath, `${string}$${string}`>;
/** A console route's query, as its `validateSearch` gives it. */
export type SearchOf<P extends ConsolePath> = RouteById<Tree, P>['types']['searchSchema'];

/** Where a console link goes: a screen with its query, or a customer's page. */
export type ConsoleTarget =
  { [P in ScreenPath]: { to: P; search?: SearchOf<P> } }[ScreenPath] | { to: '/console/customers/$userId'; params: { userId: string } };

const clean = (s: Record<string, unknown>) => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined && v !== ''));

/**
 * The setter of a screen's query: changes some keys, typed by the screen's route; a changed filter goes back to the
 * first page unless the patch names the offset. Replaces the history entry, as typing in a filter should.
 */
export function useSetSearch<P extends ScreenPath>(to: P) {
  const navigate = useNavigate();
  return (patch: SearchOf<P>) =>
    void navigate({
      to,
      search: (prev: Record<string, unknown>) => clean({ ...prev, ...('offset' in patch ? {} : { offset: undefined }), ...patch }),
      replace: true,
    } as never);
}

/**
 * A link to a console route, `link` typed by the route (its address, its query or id). Works as Mantine's
 * `component`: `<Anchor component={ConsoleLink} link={{ to: '/console/kyc', search: { status: 'pending' } }}>`.
 */
export const ConsoleLink = forwardRef<HTMLAnchorElement, { link: ConsoleTarget } & AnchorHTMLAttributes<HTMLAnchorElement>>(
  function ConsoleLink({ link, ...rest }, ref) {
    // Active only on its own screen: every console address starts with /console/, the dashboard's.
    return (
      <Link
        ref={ref}
        {...(rest as object)}
        {...(link as object as { to: '/console' })}
        activeOptions={{ exact: true, includeSearch: false }}
      />
    );
  },
);
