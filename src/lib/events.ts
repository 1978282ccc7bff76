import type { Executor } from '../db/client.js';

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
  'wallet.credited': { userId: string; amount: bigint; source: 'topup' | 'dva' | 'transfer' | 'adjustment' | 'savings' | 'other'; reference: string };
  /** A VTU purchase was delivered. */
  'vtu.succeeded': { userId: string; transactionId: string; amount: bigint; service: string };
  /** The account was closed (settings): scrub personal data you hold for this user, keep money records. */
  'account.closed': { userId: string };
}

export type EventName = keyof DomainEvents;
export type Subscriber<E extends EventName> = (exec: Executor, payload: DomainEvents[E]) => Promise<void>;

/**
 * A subscriber's read-only check of whether an event concerns it at all (e.g. "does this user have an open loan"):
 * when it says no, the subscriber is not called, and an emitter can run the checks early with prepare().
 */
export type Applies<E extends EventName> = (exec: Executor, payload: DomainEvents[E]) => Promise<boolean>;

export interface PreparedEmit {
  /** How many subscribers the event applies to: with none, the emitter need not hold a transaction for them. */
  subscribers: number;
  emit(tx: Executor): Promise<void>;
}

export class EventBus {
  private subs = new Map<EventName, { fn: Subscriber<any>; applies?: Applies<any> }[]>();

  on<E extends EventName>(name: E, fn: Subscriber<E>, applies?: Applies<E>): void {
    this.subs.set(name, [...(this.subs.get(name) ?? []), { fn, applies }]);
  }

  async emit<E extends EventName>(exec: Executor, name: E, payload: DomainEvents[E]): Promise<void> {
    for (const s of this.subs.get(name) ?? []) if (!s.applies || (await s.applies(exec, payload))) await s.fn(exec, payload);
  }

  /**
   * Runs the subscribers' checks now and returns the emit for later, which calls only the subscribers whose check
   * said yes. For an emitter whose transaction holds hot row locks (issue 11: a transfer's wallets): the checks
   * run before the locks are taken, so an event nobody needs costs nothing under them. The checks see the state
   * as of prepare(); a subscriber that starts to apply between the two (a loan disbursed to the recipient in the
   * same instant) misses this one event (docs/decisions.md).
   */
  async prepare<E extends EventName>(exec: Executor, name: E, payload: DomainEvents[E]): Promise<PreparedEmit> {
    const chosen: Subscriber<E>[] = [];
    for (const s of this.subs.get(name) ?? []) if (!s.applies || (await s.applies(exec, payload))) chosen.push(s.fn);
    return {
      subscribers: chosen.length,
      async emit(tx) {
        for (const fn of chosen) await fn(tx, payload);
      },
    };
  }
}
