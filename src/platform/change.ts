import { sql, type SQL } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../db/client.js';
import { mergeableStatement, runChange, runParts, type Made, type Part } from '../db/change-statements.js';
import type { EnqueueOptions, JobQueue } from '../jobs/queue.js';
import { insertJobRowsSql } from '../jobs/rows.js';
import type { Clock } from '../kernel/clock.js';
import { AppError } from '../kernel/errors.js';
import type { NotificationInput } from '../kernel/notification.js';
import type { Ledger, PostInput, Posted } from '../ledger/ledger.js';
import type { DomainEvents, EventName } from './events.js';

/**
 * The unit of work: the one way domain code changes anything. A use case describes what changes on a `Change` —
 * post these entries, write this row of my table, notify this person, emit this event, enqueue this job — and then
 * commits it. The platform decides how: with a posting, the posting's own statement decides and everything else is
 * written exactly when it posts (in its round trip, or merged with other postings' writes when the ledger batches);
 * in the caller's transaction when the change was begun in one (`work.change(tx)`); else in a transaction of its own.
 * The request's Idempotency-Key claim is marked by the ledger from the request's scope; nobody passes it.
 *
 * A write is a statement over `made` (or `each`): a relation with one row when the change is made and none when it
 * is refused (a duplicate reference skipped, a purchase another settlement got to first), so a write of a change
 * that did not happen writes nothing. Give it `data` (JSON) and keep the builder a module-level function when many
 * changes write the same kind of row: the writes of one builder are then ONE statement for a whole batch.
 */
export interface Change {
  /** The change's money: balanced entries. At most one posting per change. */
  post(input: PostInput, opts?: { ifPosted?: 'skip' }): Change;
  /**
   * A write of one of your module's own tables, made exactly when the change is made: `statement(each)` reads
   * `FROM each` (the made row's columns, and `each.data`: `data` as jsonb).
   */
  write(statement: (each: SQL) => SQL, data?: unknown): Change;
  /** Notifications to people (inbox, push, e-mail, SMS), delivered after the commit. */
  notify(...notices: NotificationInput[]): Change;
  /** A domain event: its subscribers add their writes and jobs to this change. */
  emit<E extends EventName>(name: E, payload: DomainEvents[E]): Change;
  /**
   * A job run after the commit. `onlyIf(payload)`: an SQL condition over the job's payload (jsonb) that must hold,
   * when the change is made, for the job to be written (a job only while a loan is open); keep it a module-level
   * function (made once), so the jobs of a change and of a batch stay one statement.
   */
  enqueue(name: string, payload: unknown, opts?: EnqueueOptions & { onlyIf?: (payload: SQL) => SQL }): Change;
  /**
   * Makes the change: answers the posting (null when `ifPosted: 'skip'` met a posted reference, and nothing else
   * was written). A change without a posting writes its writes in one round trip.
   */
  commit(): Promise<{ posted: Posted | null }>;
  /**
   * Makes the change with a deciding statement of your own instead of a posting (a purchase settled only while it is
   * still processing): `decide(mark)` must select `mark(from)` over the rows it made, exactly once; the writes read the
   * made row as `made.alias`. Answers the deciding statement's rows.
   */
  commitDeciding<R>(made: Made, decide: (mark: (from: SQL) => SQL) => SQL): Promise<R[]>;
}

/** Where changes begin. */
export interface Work {
  /**
   * A change made in the caller's transaction `tx`, or alone (its own statement or transaction) without one or
   * when `tx` is the database itself.
   */
  change(tx?: Executor): Change;
  /** The notifications module says how a change's notices are written (its rows and fan-out job, on the change). */
  provideNotices(write: (change: Change, notices: readonly NotificationInput[]) => void): void;
}

interface WorkDeps {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  jobs: JobQueue;
  events: EventBus;
}

export function createWork(deps: WorkDeps): Work {
  const ctx: ChangeContext = { ...deps, noticesWrite: null, enqueueEach: enqueueBuilders(deps.clock) };
  return {
    change: (exec) => newChange(ctx, exec && 'rollback' in exec ? (exec as Tx) : undefined),
    provideNotices: (write) => void (ctx.noticesWrite = write),
  };
}

interface ChangeContext extends WorkDeps {
  noticesWrite: ((change: Change, notices: readonly NotificationInput[]) => void) | null;
  enqueueEach: ReturnType<typeof enqueueBuilders>;
}

function newChange(ctx: ChangeContext, tx: Tx | undefined): Change {
  const { db, ledger, jobs, events } = ctx;
  const parts: Part[] = [];
  const notices: NotificationInput[] = [];
  let posting: { input: PostInput; skip: boolean } | null = null;
  /** The writes, the notices' among them (written once, when the change is made). */
  const withNotices = () => {
    if (notices.length) {
      if (!ctx.noticesWrite) throw new Error('change: notices written before the notifications module was built');
      ctx.noticesWrite(change, notices.splice(0));
    }
    return parts;
  };
  const change: Change = {
    post(input, opts) {
      if (posting) throw new Error('change: one posting per change');
      posting = { input, skip: opts?.ifPosted === 'skip' };
      return change;
    },
    write(statement, data) {
      parts.push(mergeableStatement(data ?? null, statement));
      return change;
    },
    notify(...list) {
      notices.push(...list);
      return change;
    },
    emit(name, payload) {
      events.subscribersOf(name).forEach((s) => s(payload, change));
      return change;
    },
    enqueue(name, payload, opts = {}) {
      const { onlyIf, ...options } = opts;
      const { builder, condition } = ctx.enqueueEach(onlyIf);
      parts.push(mergeableStatement({ ...jobs.jobRow(name, payload, options), condition }, builder));
      return change;
    },
    async commit() {
      const all = withNotices();
      if (!posting) {
        if (all.length) await runParts(tx ?? db, all);
        return { posted: null };
      }
      const input = { ...posting.input, parts: [...(posting.input.parts ?? []), ...all] };
      if (tx) return { posted: posting.skip ? await ledger.tryPost(tx, input) : await ledger.post(tx, input) };
      try {
        return { posted: await ledger.postAlone(db, input) };
      } catch (err) {
        if (posting.skip && err instanceof AppError && err.code === 'DUPLICATE_REFERENCE') return { posted: null };
        throw err;
      }
    },
    async commitDeciding<R>(made: Made, decide: (mark: (from: SQL) => SQL) => SQL) {
      if (posting) throw new Error('change: a posting decides its own change; use commit()');
      const { rows } = await runChange<R>(tx ?? db, made, decide, withNotices());
      return rows;
    },
  };
  return change;
}

/**
 * The enqueue statement of every job over `each`, whatever its queue: each row carries its job (jobs/rows.ts) and the
 * number of its condition (`onlyIf`, over the job's payload), and is inserted where that condition holds. One builder
 * for all jobs, so a change's jobs, and a batch's, are one statement; it names every condition seen so far.
 */
type Builder = (each: SQL) => SQL;
const MAX_CONDITIONS = 64;
function enqueueBuilders(clock: Clock) {
  const conditions = new Map<Builder, number>();
  let where: SQL = sql`true`;
  const builder: Builder = (each) => insertJobRowsSql(clock.now(), each, where);
  return (onlyIf?: Builder): { builder: Builder; condition: number | null } => {
    if (!onlyIf) return { builder, condition: null };
    let n = conditions.get(onlyIf);
    if (n === undefined) {
      // A condition is a function made once (a module's constant); one made per call would grow this without end.
      if (conditions.size >= MAX_CONDITIONS) throw new Error('change: more than 64 job conditions; make each onlyIf once');
      conditions.set(onlyIf, (n = conditions.size));
      const cases = [...conditions].map(([c, i]) => sql`WHEN ${sql.raw(String(i))} THEN ${c(sql`(each.data -> 'payload')`)}`);
      where = sql`CASE (each.data ->> 'condition')::int ${sql.join(cases, sql` `)} ELSE true END`;
    }
    return { builder, condition: n };
  };
}

/**
 * A subscriber adds what it writes when the event happens to the emitter's change (src/platform/change.ts): its
 * writes on its own tables and its jobs (work longer than a statement, run after the commit, in batches), made
 * exactly when the change is made. It never calls upstreams; it adds nothing when the payload does not concern it.
 */
export type Subscriber<E extends EventName> = (payload: DomainEvents[E], change: Change) => void;

export class EventBus {
  private subs = new Map<EventName, Subscriber<any>[]>();

  on<E extends EventName>(name: E, subscriber: Subscriber<E>): void {
    this.subs.set(name, [...(this.subs.get(name) ?? []), subscriber]);
  }

  /** The event's subscribers (the change calls them when an event is emitted on it). */
  subscribersOf<E extends EventName>(name: E): readonly Subscriber<E>[] {
    return this.subs.get(name) ?? [];
  }
}
