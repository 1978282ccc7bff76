import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { forwardRef, type ReactNode } from 'react';

/**
 * The console is one route, /console/$: the first part of the rest names the screen, what follows is that screen's
 * own (an id). Filters, page and selection live in the address's query, so a reload or a shared link shows the same.
 */
/** What a screen gets: the address's parts after its name (an id). */
export interface ScreenProps {
  rest: string[];
}

export type SearchValue = string | number | boolean | undefined;
export type Search = Record<string, SearchValue>;

export function useConsolePath(): string[] {
  const { _splat } = useParams({ from: '/console/$' });
  return (_splat ?? '').split('/').filter(Boolean);
}

const clean = (s: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined && v !== '' && v !== null)) as Search;

/** The current screen's query: text and numbers read safely (the router parses "20" as a number), and a setter. */
export function useScreenSearch() {
  const search = useSearch({ from: '/console/$' }) as Record<string, unknown>;
  const navigate = useNavigate();
  const text = (key: string) => (search[key] === undefined || search[key] === null ? '' : String(search[key]));
  const num = (key: string, fallback: number) => {
    const n = Number(search[key]);
    return Number.isFinite(n) && search[key] !== '' && search[key] !== undefined ? n : fallback;
  };
  /** Changes some keys; a changed filter goes back to the first page unless the patch names the offset. */
  const set = (patch: Search) =>
    void navigate({
      to: '/console/$',
      params: (p) => p,
      search: (prev) => clean({ ...(prev as Search), ...('offset' in patch ? {} : { offset: undefined }), ...patch }),
      replace: true,
    });
  return { text, num, set };
}

export function useGo() {
  const navigate = useNavigate();
  return (to: string, search: Search = {}) => void navigate({ to: '/console/$', params: { _splat: to }, search: clean(search) });
}

/** A link to a console screen (`to` without the /console/ prefix). Works as Mantine's `component`. */
export const ConsoleLink = forwardRef<HTMLAnchorElement, { to: string; search?: Search; children?: ReactNode; className?: string }>(
  function ConsoleLink({ to, search, ...rest }, ref) {
    // Active only on its own screen: every console address starts with /console/, the dashboard's.
    return (
      <Link
        ref={ref}
        to="/console/$"
        params={{ _splat: to }}
        search={search ? clean(search) : {}}
        activeOptions={{ exact: true, includeSearch: false }}
        {...rest}
      />
    );
  },
);
