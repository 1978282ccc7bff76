import { useSearch } from '@tanstack/react-router';
import { useSetSearch, type ScreenPath, type SearchOf } from './nav';

/**
 * A table the service sorts: the order named in the screen's query (`key`; the first of `sorts` when absent or
 * unknown, which is the operation's default) and, for a column header, its direction and what a click asks for. A
 * new order goes back to the first page (`pageKey`; a second table on a screen keeps the first table's `offset`).
 * `from` is the screen's route; `key` and `pageKey` are keys of its query.
 */
export function useServerSort<P extends ScreenPath, S extends string>(
  from: P,
  sorts: readonly S[],
  opts: { key?: keyof SearchOf<P> & string; pageKey?: keyof SearchOf<P> & string } = {},
) {
  const { key = 'sort', pageKey = 'offset' } = opts;
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const setSearch = useSetSearch(from);
  const text = search[key];
  const sort = (sorts as readonly unknown[]).includes(text) ? (text as S) : sorts[0]!;
  /** A column sorted descending and/or ascending: a click turns it around, or starts with the first it has. */
  const column = (o: { desc?: S; asc?: S }) => ({
    direction: sort === o.desc ? ('descending' as const) : sort === o.asc ? ('ascending' as const) : ('none' as const),
    onSort: () =>
      setSearch({
        [key]: sort === o.desc ? (o.asc ?? o.desc) : sort === o.asc ? (o.desc ?? o.asc) : (o.desc ?? o.asc),
        [pageKey]: undefined,
        ...(pageKey === 'offset' ? {} : { offset: search.offset }),
      } as SearchOf<P>),
  });
  return { sort, column };
}
