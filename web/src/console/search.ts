/**
 * The console's address queries, typed per screen (each route's `validateSearch`, console/routes.tsx). The router
 * reads a query value as JSON where it can ("20" is a number, "false" a boolean, "abc" stays text); these parsers
 * take what a screen expects and drop the rest, so a hand-edited or stale address opens the screen's default instead
 * of failing. Small on purpose: they load with the app's routes.
 */
type Parse<T> = (v: unknown) => T | undefined;
/** A query's keys, each with its parser. */
export type Shape = Record<string, Parse<unknown>>;

/** Text as it is; a number or a boolean the router parsed from the address, as its text; nothing for "". */
export const text: Parse<string> = (v) =>
  typeof v === 'string' ? v || undefined : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/** A whole number, zero or more (an offset): "abc", -1 or 2.5 are dropped. */
export const count: Parse<number> = (v) => {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
};

/** One of the values (read as text, so `false` in the address is 'false'). */
export const oneOf =
  <const T extends string>(...values: T[]): Parse<T> =>
  (v) =>
    values.find((x) => x === text(v));

/**
 * A screen's query: each key read by its parser. A value the parser drops is set to undefined, not left out: the
 * router lays the validated query over the address's raw one, so a key left out would keep its raw value ("abc").
 */
export const searchOf =
  <S extends Shape>(shape: S) =>
  (raw: Record<string, unknown>): { [K in keyof S]?: Exclude<ReturnType<S[K]>, undefined> } => {
    const out: Record<string, unknown> = {};
    for (const k in shape) out[k] = shape[k]!(raw[k]);
    return out as never;
  };
