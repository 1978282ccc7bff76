import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { withAmbientTransaction } from '../db/ambient.js';
import type { Db, Executor } from '../db/client.js';
import type { ZodType } from 'zod';
import type { Clock } from '../kernel/clock.js';
import { uuid } from '../kernel/ids.js';
import { declaredInput, redactSecrets } from '../kernel/redaction.js';
import { hmac } from '../lib/crypto.js';
import type { AuditScope } from '../platform/operation.js';

/**
 * Audit by the registry (issue 30, docs/security.md "Audit"): every BearerAdmin call leaves exactly one row in
 * audit_log (migration 1001): operator, roles, operation, targets, input, outcome (`ok` or the error code), request
 * id, address, and before/after where the handler gives them (`ctx.audit`).
 * - The input is what its schema declares of an accepted one (kernel/redaction.ts: secret fields redacted), or a
 *   refused one's size and digest; before/after are redacted by field names and links' parameters.
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

/**
 * What a refused input leaves (docs/security.md "Audit"): its size and a keyed digest, never its content, which
 * failed validation and so may hold anything (a PIN under a field no schema declares). The digest is keyed so that
 * a short secret cannot be found by hashing guesses; equal inputs still have equal digests.
 */
function refusedInput(req: FastifyRequest, key: string): unknown {
  const received = req.method === 'GET' ? req.query : req.body;
  if (received === undefined) return undefined;
  const text = JSON.stringify(received) ?? '';
  return { refused: true, bytes: Buffer.byteLength(text), hmacSha256: hmac(key, `audit-input\n${text}`) };
}

/** One admin call in progress: who, what, and whether its row is written yet. */
export interface AuditCall {
  readonly record: AuditRecord;
  /** The input once it passed validation (the parsed value); undefined while it has not. */
  input: unknown;
  rowId: string | null;
  written: boolean;
}

type Outcome = string;

/** What one admin operation's audit is made with (createAdminAudit), and its calls in progress. */
interface Audit {
  db: Db;
  clock: Clock;
  operation: string;
  upstream: boolean;
  read: boolean;
  /** The operation's input schema: what an accepted input may keep. */
  input: ZodType;
  /** Key of the refused inputs' digests. */
  digestKey: string;
  calls: WeakMap<FastifyRequest, AuditCall>;
}

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(redactSecrets(v)));
/** A text[] parameter, passed as JSON (one bound value, no array-literal quoting). */
const textArray = (values: readonly string[]) => sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;

/** The row's input: the declared fields of an accepted input, else a refused one's size and digest (none unread). */
function inputOf(a: Audit, req: FastifyRequest, call: AuditCall | null) {
  const stored = call?.input !== undefined ? declaredInput(a.input, call.input) : refusedInput(req, a.digestKey);
  return stored === undefined ? null : JSON.stringify(stored);
}

async function insertRow(a: Audit, exec: Executor, req: FastifyRequest, call: AuditCall | null, outcome: Outcome): Promise<string> {
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
    VALUES (${id}, ${user.id}, ${a.operation}, ${targets[0]?.type ?? null}, ${targets[0]?.id ?? null}, NULL, ${a.clock.now()},
            ${textArray(user.operatorRoles)}, ${outcome}, ${req.id}, ${req.ip}, ${inputOf(a, req, call)}::jsonb,
            ${JSON.stringify(targets)}::jsonb, ${textArray(targets.map((t) => t.id))},
            ${json(before)}::jsonb, ${json(after)}::jsonb)`);
  return id;
}

async function completeRow(a: Audit, req: FastifyRequest, rowId: string, call: AuditCall, outcome: Outcome) {
  const t = call.record.targets;
  const changes = call.record.changes;
  const before = changes.length === 1 ? changes[0].before : changes.length ? changes.map((c) => c.before) : undefined;
  const after = changes.length === 1 ? changes[0].after : changes.length ? changes.map((c) => c.after) : undefined;
  await a.db.execute(sql`UPDATE audit_log SET outcome = ${outcome}, subject_type = ${t[0]?.type ?? null}, subject_id = ${t[0]?.id ?? null},
      targets = ${JSON.stringify(t)}::jsonb, target_ids = ${textArray(t.map((x) => x.id))},
      input = ${inputOf(a, req, call)}::jsonb, before_state = ${json(before)}::jsonb, after_state = ${json(after)}::jsonb
    WHERE id = ${rowId}`);
}

function callOf({ calls }: Audit, req: FastifyRequest): AuditCall {
  let call = calls.get(req);
  if (!call) {
    call = { record: createAuditRecord(), input: undefined, rowId: null, written: false };
    calls.set(req, call);
  }
  return call;
}

async function runAudited<T>(a: Audit, req: FastifyRequest, fn: () => Promise<T>): Promise<T> {
  const call = callOf(a, req);
  if (a.read) {
    // A read has no effect to pair its row with: no transaction is held over it, the row follows it.
    const out = await fn();
    await insertRow(a, a.db, req, call, 'ok');
    call.written = true;
    return out;
  }
  if (a.upstream) {
    call.rowId = await insertRow(a, a.db, req, call, 'pending');
    const out = await fn();
    await completeRow(a, req, call.rowId, call, 'ok');
    call.written = true;
    return out;
  }
  return withAmbientTransaction(a.db, async (tx) => {
    const out = await fn();
    await insertRow(a, tx, req, call, 'ok');
    call.written = true;
    return out;
  });
}

async function finish(a: Audit, req: FastifyRequest, outcome: Outcome): Promise<void> {
  if (!req.authUser) return;
  const call = callOf(a, req);
  if (call.written) return;
  call.written = true;
  if (call.rowId) await completeRow(a, req, call.rowId, call, outcome);
  else await insertRow(a, a.db, req, call, outcome);
}

export interface AdminAudit {
  /** The call's record for ctx.audit (created on first use for this request). */
  callOf(req: FastifyRequest): AuditCall;
  /** Runs the handler (and its output check): in one transaction with the `ok` row, or around a `pending` row. */
  run<T>(req: FastifyRequest, fn: () => Promise<T>): Promise<T>;
  /** After the answer: the row of a call that did not get one inside run (an error, a replayed answer). */
  finish(req: FastifyRequest, outcome: Outcome): Promise<void>;
  /** A refusal before the handler (roles, second factor): recorded when the caller is an operator. */
  refused(req: FastifyRequest, outcome: Outcome): Promise<void>;
}

export function createAdminAudit(deps: Omit<Audit, 'calls'>): AdminAudit {
  const a: Audit = { ...deps, calls: new WeakMap() };
  return {
    callOf: (req) => callOf(a, req),
    run: (req, fn) => runAudited(a, req, fn),
    finish: (req, outcome) => finish(a, req, outcome),
    refused: async (req, outcome) => {
      if (!req.authUser?.operatorRoles.length) return;
      await finish(a, req, outcome);
    },
  };
}

/** The no-op record of non-admin operations' ctx.audit. */
export const noAudit: AuditScope = { target: () => undefined, change: () => undefined };
