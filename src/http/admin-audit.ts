import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { withAmbientTransaction } from '../db/ambient.js';
import type { Db, Executor } from '../db/client.js';
import type { Clock } from '../kernel/clock.js';
import { uuid } from '../kernel/ids.js';
import type { AuditScope } from './registry.js';

/**
 * Audit by the registry (issue 30, docs/security.md "Audit"): every BearerAdmin call leaves exactly one row in
 * audit_log (migration 1001): operator, roles, operation, targets, input with secrets removed, outcome (`ok` or the
 * error code), request id, address, and before/after where the handler gives them (`ctx.audit`).
 * - A call that runs its handler does so inside one transaction that the handler's writes join (db/ambient.ts);
 *   the `ok` row is inserted in that transaction, so the effect and its row commit or roll back together.
 * - An error (refused input, a gate, the handler, even the audit insert itself) rolls the effect back; its row is
 *   then written on its own, after the rollback.
 * - A read (GET) has no effect: it runs outside any transaction (a dashboard query holds none) and its row follows.
 * - An operation declared `upstream` waits on a provider inside its handler; no transaction is held across that
 *   wait: its row is inserted first (outcome `pending`) and completed when the call ends, so no effect is ever
 *   without its row.
 * - A refusal before the handler (the caller's roles, its second factor) is recorded for operators; a customer
 *   who calls an admin operation gets 403 and no row (their calls are no operator's action).
 */

/** What a handler told the registry about its admin call (targets, before/after), for the call's audit row. */
export interface AuditRecord extends AuditScope {
  readonly targets: { type: string; id: string }[];
  readonly changes: { before: unknown; after: unknown }[];
}

export function createAuditRecord(): AuditRecord {
  const targets: { type: string; id: string }[] = [];
  const changes: { before: unknown; after: unknown }[] = [];
  return {
    targets,
    changes,
    target(type, id) {
      if (targets.length < 50 && !targets.some((t) => t.type === type && t.id === id)) targets.push({ type, id: String(id) });
    },
    change(before, after) {
      if (changes.length < 20) changes.push({ before, after });
    },
  };
}

/** Words of a field name that mark it secret: its value is replaced by "[redacted]" in the audit row. */
const SECRET_WORDS = new Set([
  'pin',
  'code',
  'otp',
  'password',
  'passcode',
  'passphrase',
  'token',
  'secret',
  'key',
  'cvv',
  'credential',
  'credentials',
  'signature',
  'authorization',
  'cookie',
]);

/** True when a field name (camelCase, snake_case or kebab-case) has a secret word: `pin`, `newPin`, `grant_token`. */
export function isSecretField(name: string): boolean {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((w) => SECRET_WORDS.has(w));
}

/**
 * Text PostgreSQL's jsonb can hold: a refused input may carry a lone UTF-16 surrogate or U+0000 (found by fuzzing),
 * which jsonb refuses, and the audit row of that refusal must still be written.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is what must be replaced
const LONE_SURROGATE_OR_NUL = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/g;
function storable(text: string): string {
  return text.replace(LONE_SURROGATE_OR_NUL, '\uFFFD');
}

/** A copy of `value` with secret fields redacted, long strings cut and deep or wide structures bounded. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return storable(value.length > 500 ? `${value.slice(0, 500)}…` : value);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value === null || typeof value !== 'object') return value ?? null;
  if (depth >= 6) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redactSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, 100))
    out[storable(k)] = isSecretField(k) ? '[redacted]' : redactSecrets(v, depth + 1);
  return out;
}

/** One admin call in progress: who, what, and whether its row is written yet. */
export interface AuditCall {
  readonly record: AuditRecord;
  input: unknown;
  rowId: string | null;
  written: boolean;
}

type Outcome = string;

export function createAdminAudit(deps: { db: Db; clock: Clock; operation: string; upstream: boolean; read: boolean }) {
  const { db, clock, operation } = deps;
  const calls = new WeakMap<FastifyRequest, AuditCall>();

  const json = (v: unknown) => (v === undefined ? null : JSON.stringify(redactSecrets(v)));
  /** A text[] parameter, passed as JSON (one bound value, no array-literal quoting). */
  const textArray = (values: readonly string[]) => sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;

  async function insert(exec: Executor, req: FastifyRequest, call: AuditCall | null, outcome: Outcome): Promise<string> {
    const user = req.authUser!;
    const id = uuid();
    const targets = call?.record.targets ?? [];
    const changes = call?.record.changes ?? [];
    const [before, after] =
      changes.length === 0
        ? [undefined, undefined]
        : changes.length === 1
          ? [changes[0].before, changes[0].after]
          : [changes.map((c) => c.before), changes.map((c) => c.after)];
    await exec.execute(sql`INSERT INTO audit_log (id, actor_id, action, subject_type, subject_id, details, created_at, roles, outcome,
                             request_id, ip, input, targets, target_ids, before_state, after_state)
      VALUES (${id}, ${user.id}, ${operation}, ${targets[0]?.type ?? null}, ${targets[0]?.id ?? null}, NULL, ${clock.now()},
              ${textArray(user.operatorRoles)}, ${outcome}, ${req.id}, ${req.ip}, ${json(call?.input)}::jsonb,
              ${JSON.stringify(targets)}::jsonb, ${textArray(targets.map((t) => t.id))},
              ${json(before)}::jsonb, ${json(after)}::jsonb)`);
    return id;
  }

  async function complete(rowId: string, call: AuditCall, outcome: Outcome) {
    const t = call.record.targets;
    const changes = call.record.changes;
    const before = changes.length === 1 ? changes[0].before : changes.length ? changes.map((c) => c.before) : undefined;
    const after = changes.length === 1 ? changes[0].after : changes.length ? changes.map((c) => c.after) : undefined;
    await db.execute(sql`UPDATE audit_log SET outcome = ${outcome}, subject_type = ${t[0]?.type ?? null}, subject_id = ${t[0]?.id ?? null},
        targets = ${JSON.stringify(t)}::jsonb, target_ids = ${textArray(t.map((x) => x.id))},
        input = ${json(call.input)}::jsonb, before_state = ${json(before)}::jsonb, after_state = ${json(after)}::jsonb
      WHERE id = ${rowId}`);
  }

  return {
    /** The call's record for ctx.audit (created on first use for this request). */
    callOf(req: FastifyRequest): AuditCall {
      let call = calls.get(req);
      if (!call) {
        call = { record: createAuditRecord(), input: undefined, rowId: null, written: false };
        calls.set(req, call);
      }
      return call;
    },

    /** Runs the handler (and its output check): in one transaction with the `ok` row, or around a `pending` row. */
    async run<T>(req: FastifyRequest, fn: () => Promise<T>): Promise<T> {
      const call = this.callOf(req);
      if (deps.read) {
        // A read has no effect to pair its row with: no transaction is held over it, the row follows it.
        const out = await fn();
        await insert(db, req, call, 'ok');
        call.written = true;
        return out;
      }
      if (deps.upstream) {
        call.rowId = await insert(db, req, call, 'pending');
        const out = await fn();
        await complete(call.rowId, call, 'ok');
        call.written = true;
        return out;
      }
      return withAmbientTransaction(db, async (tx) => {
        const out = await fn();
        await insert(tx, req, call, 'ok');
        call.written = true;
        return out;
      });
    },

    /** After the answer: the row of a call that did not get one inside run (an error, a replayed answer). */
    async finish(req: FastifyRequest, outcome: Outcome): Promise<void> {
      if (!req.authUser) return;
      const call = this.callOf(req);
      if (call.written) return;
      call.written = true;
      if (call.rowId) await complete(call.rowId, call, outcome);
      else await insert(db, req, call, outcome);
    },

    /** A refusal before the handler (roles, second factor): recorded when the caller is an operator. */
    async refused(req: FastifyRequest, outcome: Outcome): Promise<void> {
      if (!req.authUser?.operatorRoles.length) return;
      await this.finish(req, outcome);
    },
  };
}

export type AdminAudit = ReturnType<typeof createAdminAudit>;

/** The no-op record of non-admin operations' ctx.audit. */
export const noAudit: AuditScope = { target: () => undefined, change: () => undefined };
