import pg from 'pg';

/**
 * The text of every statement `fn` sends over PostgreSQL connections (pg Client.query, BEGIN and SAVEPOINT
 * included), in order: for tests that pin how many round trips a path takes. PostgreSQL runs only;
 * PGlite has no pg client.
 */
export async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const texts: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0] as string | { text?: string };
    texts.push(String(typeof q === 'string' ? q : q?.text));
    return (original as (...x: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = original;
  }
  return texts;
}
