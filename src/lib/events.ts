import { sql, type SQL } from 'drizzle-orm';
import { one, type Executor } from '../db/client.js';

/**
 * In-process domain events, delivered synchronously inside the emitter's database transaction, so a
 * subscriber's writes commit or roll back with the change (e.g. a referral bonus with the purchase that
 * earned it). Subscribers must be quick and must not call upstreams; slow work goes to a job.
 */
export interface DomainEvents {
  /** A user account was created (first login); referralCode as typed at sign-up. */
  'user.created': { userId: string; referralCode?: string };
  /** A KYC tier was approved. */
  'kyc.approved': { userId: string; tier: number };
  /** Money arrived in a user's wallet from outside it (top-up, DVA transfer, transfer received, refund excluded). */
  'wallet.credited': {
    userId: string;
    amount: bigint;
    source: 'topup' | 'dva' | 'transfer' | 'adjustment' | 'savings' | 'other';
    reference: string;
  };
  /** A VTU purchase was delivered. */
  'vtu.succeeded': { userId: string; transactionId: string; amount: bigint; service: string };
  /** The account was closed (settings): scrub personal data you hold for this user, keep money records. */
  'account.closed': { userId: string };
}

export type EventName = keyof DomainEvents;
export type Subscriber<E extends EventName> = (exec: Executor, payload: DomainEvents[E]) => Promise<void>;

/**
 * A subscriber's check of whether an event concerns it at all (e.g. "does this user have an open loan"), as a
 * boolean SQL expression of the event's user (every domain event names one, as `userId`). When it is false the
 * subscriber is not called. Being SQL, an emitter can have the checks answered by a read it makes anyway
 * (checksSql), or all of them in one round trip (prepare).
 */
export type Applies = (userId: SQL) => SQL;

/**
 * Writes that ride on an emitter's statement (the shape of a ledger PostRider): CTE definitions reading FROM `from`,
 * a relation with one row when the event happens and none otherwise, every name starting with `prefix`; and one SQL
 * value the statement returns for the subscriber (reading the rider's CTEs).
 */
export interface EventRider {
  ctes(from: SQL, prefix: string): SQL;
  output(prefix: string): SQL;
}

/**
 * A subscriber's form for an emitter that makes its change in ONE autocommit statement (a delivered VTU
 * purchase): what the subscriber would do first rides on that statement, and after() gets the rider's output once
 * the statement has committed. after() must not throw, and whatever it still has to do must survive a crash
 * between the commit and it (the rider can write a job for it).
 */
export interface Ride<E extends EventName> {
  rider(payload: DomainEvents[E]): EventRider;
  after(payload: DomainEvents[E], output: unknown): Promise<void>;
}

/** An event's riders for one emit, and the work after the emitter's statement commits (EventBus.riding). */
export interface RidingEmit {
  riders: EventRider[];
  /** With the riders' outputs, in the riders' order. */
  after(outputs: readonly unknown[]): Promise<void>;
}

export interface PreparedEmit {
  /** How many subscribers the event applies to: with none, the emitter need not hold a transaction for them. */
  subscribers: number;
  emit(tx: Executor): Promise<void>;
}

export class EventBus {
  private subs = new Map<EventName, { fn: Subscriber<any>; applies?: Applies; ride?: Ride<any> }[]>();

  /** `ride`: the subscriber's form for one-statement emitters (see riding); emit() always calls `fn`. */
  on<E extends EventName>(name: E, fn: Subscriber<E>, applies?: Applies, ride?: Ride<E>): void {
    this.subs.set(name, [...(this.subs.get(name) ?? []), { fn, applies, ride }]);
  }

  /**
   * The event as riders on the emitter's own statement, when every subscriber has a riding form (null otherwise:
   * emit inside a transaction as usual). The emitter writes the riders' CTEs and returns their outputs, then calls
   * after() once its statement has committed.
   */
  riding<E extends EventName>(name: E, payload: DomainEvents[E]): RidingEmit | null {
    const subs = this.subs.get(name) ?? [];
    if (subs.some((s) => !s.ride)) return null;
    return {
      riders: subs.map((s) => s.ride!.rider(payload)),
      async after(outputs) {
        for (const [i, s] of subs.entries()) await s.ride!.after(payload, outputs[i]);
      },
    };
  }

  async emit<E extends EventName>(exec: Executor, name: E, payload: DomainEvents[E]): Promise<void> {
    await (await this.prepare(exec, name, payload)).emit(exec);
  }

  /**
   * The subscribers' checks for an event of the user `userId` (an SQL expression, e.g. a column of the caller's
   * read) as one JSON array expression, or null when no subscriber has a check. Pass what it evaluated to, with
   * the payload, to prepared().
   */
  checksSql(name: EventName, userId: SQL): SQL | null {
    const checks = (this.subs.get(name) ?? []).filter((s) => s.applies).map((s) => sql`(${s.applies!(userId)})`);
    return checks.length ? sql`json_build_array(${sql.join(checks, sql`, `)})` : null;
  }

  /** The emit for later, calling the subscribers whose check said yes in `answer` (checksSql's value) and those without a check. */
  prepared<E extends EventName>(name: E, payload: DomainEvents[E], answer: readonly boolean[] | null): PreparedEmit {
    let k = 0;
    const chosen: Subscriber<E>[] = [];
    for (const s of this.subs.get(name) ?? []) {
      if (!s.applies) chosen.push(s.fn);
      else if (answer?.[k++] === true) chosen.push(s.fn);
    }
    return {
      subscribers: chosen.length,
      async emit(tx) {
        for (const fn of chosen) await fn(tx, payload);
      },
    };
  }

  /**
   * Runs the subscribers' checks now (one statement, none without checks) and returns the emit for later. For an
   * emitter whose transaction holds hot row locks (a transfer's wallets): the checks run before the
   * locks are taken, so an event nobody needs costs nothing under them. The checks see the state as of now; a
   * subscriber that starts to apply between the two (a loan disbursed to the recipient in the same instant)
   * misses this one event (docs/decisions.md).
   */
  async prepare<E extends EventName>(exec: Executor, name: E, payload: DomainEvents[E]): Promise<PreparedEmit> {
    const checks = this.checksSql(name, sql`${payload.userId}::uuid`);
    const answer = checks ? ((await one<{ a: boolean[] }>(exec, sql`SELECT ${checks} AS a`))?.a ?? null) : null;
    return this.prepared(name, payload, answer);
  }
}
