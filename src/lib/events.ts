import type { Executor } from '../db/client.js';
import { runParts, type Part } from '../db/parts.js';

/**
 * In-process domain events: each subscriber's writes are part of the emitter's own statement or transaction, so they
 * commit or roll back with the change (e.g. a purchase recorded for the referral it may qualify). Subscribers never
 * call upstreams; work longer than a statement goes to a job their part writes.
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

/**
 * A subscriber has one form: what it writes when the event happens, as a part of the emitter's own statement (or of
 * one statement in the emitter's transaction), so its writes commit or roll back with the change. A part is plain
 * SQL on the subscriber's own tables (or the job it writes for work longer than a statement, run by the worker after
 * the commit, in batches), and the part itself says which users it concerns (e.g. a job only while a loan is open),
 * so an event nobody needs writes nothing. Null: nothing to write for this payload.
 */
export type Subscriber<E extends EventName> = (payload: DomainEvents[E]) => Part | null;

export class EventBus {
  private subs = new Map<EventName, Subscriber<any>[]>();

  on<E extends EventName>(name: E, subscriber: Subscriber<E>): void {
    this.subs.set(name, [...(this.subs.get(name) ?? []), subscriber]);
  }

  /** The event as parts of the emitter's own statement (a ledger posting's `parts`, a settled purchase's). */
  parts<E extends EventName>(name: E, payload: DomainEvents[E]): Part[] {
    return (this.subs.get(name) ?? []).flatMap((s) => s(payload) ?? []);
  }

  /** The event inside the emitter's transaction: its parts as one statement, now. */
  async emit<E extends EventName>(tx: Executor, name: E, payload: DomainEvents[E]): Promise<void> {
    await runParts(tx, this.parts(name, payload));
  }
}
