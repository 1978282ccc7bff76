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

export class EventBus {
  private subs = new Map<EventName, Subscriber<any>[]>();

  on<E extends EventName>(name: E, fn: Subscriber<E>): void {
    this.subs.set(name, [...(this.subs.get(name) ?? []), fn]);
  }

  async emit<E extends EventName>(exec: Executor, name: E, payload: DomainEvents[E]): Promise<void> {
    for (const fn of this.subs.get(name) ?? []) await fn(exec, payload);
  }
}
