import { sql } from 'drizzle-orm';
import type { Harness } from '../helpers/harness.js';
import { rows } from '../../src/db/client.js';
import type { AnyOperation } from '../../src/platform/operation.js';
import { authOf } from '../../src/platform/operation.js';
import { ERROR_CODES } from '../../src/kernel/errors.js';
import { statusOf } from '../../src/http/errors.js';

/**
 * A cheap fingerprint of the whole database: the row count of every table in the public schema, plus the
 * money totals (sum of |ledger entry amounts| and sum of |account balances|, since both plain sums are 0 by
 * double entry). Two equal fingerprints mean no row was added or removed and no naira moved.
 */
export type Fingerprint = Record<string, string>;

let tableCache: WeakMap<Harness, string[]> = new WeakMap();

async function tables(h: Harness): Promise<string[]> {
  const cached = tableCache.get(h);
  if (cached) return cached;
  const names = (
    await rows<{ t: string }>(
      h.app.services.db,
      sql`SELECT table_name::text AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
    )
  ).map((r) => r.t);
  tableCache.set(h, names);
  return names;
}

export async function fingerprint(h: Harness, exclude: ReadonlySet<string> = new Set()): Promise<Fingerprint> {
  const names = (await tables(h)).filter((t) => !exclude.has(t));
  const parts = names.map((t) => sql`SELECT ${t}::text AS k, count(*)::text AS v FROM ${sql.identifier(t)}`);
  parts.push(sql`SELECT 'Σ|ledger_entries.amount|'::text AS k, COALESCE(SUM(ABS(amount)), 0)::text AS v FROM ledger_entries`);
  parts.push(sql`SELECT 'Σ|accounts.balance|'::text AS k, COALESCE(SUM(ABS(balance)), 0)::text AS v FROM accounts`);
  const found = await rows<{ k: string; v: string }>(h.app.services.db, sql.join(parts, sql` UNION ALL `));
  return Object.fromEntries(found.map((r) => [r.k, r.v]));
}

export function resetFingerprintCache() {
  tableCache = new WeakMap();
}

/** The keys whose values differ, for a readable failure. */
export function diff(a: Fingerprint, b: Fingerprint): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).map((k) => `${k}: ${a[k]} -> ${b[k]}`);
}

const CODES = new Set<string>(ERROR_CODES);

/**
 * Checks an answer against the documented error shape (docs/errors.md): {ok:false, error:{code, message,
 * issues?}} with the status the catalogue gives the code. Returns a problem description or null.
 */
export function shapeProblem(op: AnyOperation, res: { statusCode: number; body: string }): string | null {
  let body: any;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `body is not JSON: ${res.body.slice(0, 200)}`;
  }
  if (res.statusCode === 200) return body?.ok === true ? null : `200 without ok:true`;
  if (body?.ok !== false || typeof body.error !== 'object' || body.error === null)
    return `error body without {ok:false,error}: ${res.body.slice(0, 200)}`;
  const { code, message, issues } = body.error;
  if (!CODES.has(code)) return `undocumented error code ${code}`;
  if (typeof message !== 'string' || !message) return `error without a message`;
  if (statusOf(code) !== res.statusCode) return `code ${code} answered with ${res.statusCode}, catalogue says ${statusOf(code)}`;
  if (
    issues !== undefined &&
    (!Array.isArray(issues) || issues.some((i: any) => typeof i?.path !== 'string' || typeof i?.message !== 'string'))
  )
    return `issues not [{path,message}]`;
  if (res.statusCode >= 500) {
    // Only an operation that calls a catalogue or upstream may answer its documented upstream failure.
    const allowed = (op.errors ?? []).includes(code) && (code === 'UPSTREAM_ERROR' || code === 'SERVICE_UNAVAILABLE');
    if (!allowed) return `answered ${res.statusCode} ${code}: ${res.body.slice(0, 300)}`;
  }
  if ((code === 'UNAUTHENTICATED' || code === 'SESSION_SUPERSEDED') && authOf(op) !== 'public') return `lost its session: ${code}`;
  return null;
}
