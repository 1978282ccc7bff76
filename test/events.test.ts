import { describe, expect, it } from 'vitest';
import type { Executor } from '../src/db/client.js';
import { EventBus } from '../src/lib/events.js';

/** The in-process event bus: subscribers' applies checks, in emit and ahead of time in prepare. */
describe('EventBus', () => {
  const exec = {} as Executor;
  const payload = { userId: 'u1', amount: 5n, source: 'transfer' as const, reference: 'r1' };

  it('emit calls a subscriber only when its check says the event applies', async () => {
    const bus = new EventBus();
    const calls: string[] = [];
    bus.on('wallet.credited', async () => void calls.push('always'));
    bus.on('wallet.credited', async () => void calls.push('loan'), async (_x, e) => e.userId === 'u2');
    await bus.emit(exec, 'wallet.credited', payload);
    await bus.emit(exec, 'wallet.credited', { ...payload, userId: 'u2' });
    expect(calls).toEqual(['always', 'always', 'loan']);
  });

  it('prepare runs the checks at once and the returned emit only the subscribers that applied then', async () => {
    const bus = new EventBus();
    const calls: string[] = [];
    let open = false;
    const checks: string[] = [];
    bus.on('wallet.credited', async (x) => void calls.push(x === exec ? 'repay in tx' : 'wrong executor'), async () => (checks.push('checked'), open));
    const none = await bus.prepare(exec, 'wallet.credited', payload);
    open = true; // too late for the prepared emit
    const one = await bus.prepare(exec, 'wallet.credited', payload);
    expect(checks).toEqual(['checked', 'checked']);
    expect([none.subscribers, one.subscribers]).toEqual([0, 1]);
    await none.emit(exec);
    expect(calls).toEqual([]);
    await one.emit(exec);
    expect(calls).toEqual(['repay in tx']);
    expect(checks).toHaveLength(2); // firing does not check again
  });
});
