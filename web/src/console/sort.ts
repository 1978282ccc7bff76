import { useScreenSearch } from './nav';

/**
 * A table the service sorts: the order named in the address (`key`; the first of `sorts` when absent or unknown,
 * which is the operation's default) and, for a column header, its direction and what a click asks for. A new order
 * goes back to the first page (`pageKey`; a second table on a screen keeps the first table's `offset`).
 */
export function useServerSort<S extends string>(sorts: readonly S[], { key = 'sort', pageKey = 'offset' } = {}) {
  const search = useScreenSearch();
  const text = search.text(key);
  const sort = (sorts as readonly string[]).includes(text) ? (text as S) : sorts[0]!;
  /** A column sorted descending and/or ascending: a click turns it around, or starts with the first it has. */
  const column = (o: { desc?: S; asc?: S }) => ({
    direction: sort === o.desc ? ('descending' as const) : sort === o.asc ? ('ascending' as const) : ('none' as const),
    onSort: () =>
      search.set({
        [key]: sort === o.desc ? (o.asc ?? o.desc) : sort === o.asc ? (o.desc ?? o.asc) : (o.desc ?? o.asc),
        [pageKey]: undefined,
        ...(pageKey === 'offset' ? {} : { offset: search.num('offset', 0) }),
      }),
  });
  return { sort, column };
}
