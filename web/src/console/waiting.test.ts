import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { enConsole } from '../locales/console';
import { waitingTiles } from './screens/Dashboard';
import { paidFlag } from './screens/TopUps';
import { requeryNotice } from './screens/Withdrawals';

/** Issue 44: the dashboard's waiting tiles, each opening its exact list, for the screens the operator's roles open. */
const queues = {
  stuckPurchases: { count: 2, oldestAgeSeconds: 900, stuckAfterSeconds: 600 },
  webhooks: { creditedLastHour: 0, lagSeconds: { max: null, avg: null }, waiting: 0, oldestWaitingSeconds: null },
  jobs: { due: 0, lagSeconds: null, byQueue: [] },
  deadLetters: { total: 1, oldestAgeSeconds: 3 * 3600, byQueue: [] },
  kyc: { pending: 0, oldestAgeSeconds: null, byTier: [] },
  approvals: { pending: 3, oldestAgeSeconds: 300 },
  support: { open: 4, awaitingReply: 1, oldestAwaitingSeconds: 60 },
  reports: { open: 5, oldestAgeSeconds: 7200 },
  topups: { pending: 6, oldestPendingSeconds: 900, pendingAfterSeconds: 300, underpaid: 1, overpaid: 2 },
  withdrawals: { stuck: 2, oldestStuckSeconds: 5400, stuckAfterSeconds: 3600 },
  floats: { low: ['c'], floatBelow: 50_000, poolLow: false, poolBelow: 0, lowForSeconds: 1500 as number | null },
};
// The tiles' words are the console's English strings (locales/console).
beforeAll(async () => {
  await i18next.init({ resources: { en: { translation: enConsole } }, lng: 'en', interpolation: { escapeValue: false } });
});
const targets = (roles: string[]) =>
  waitingTiles(queues, roles).map((t) => [t.link.to.replace('/console/', ''), 'search' in t.link ? t.link.search : {}, t.value]);

describe('waiting tiles', () => {
  it('an admin sees every tile, each with the filter of its list', () => {
    expect(targets(['admin'])).toEqual([
      ['kyc', {}, 0],
      ['approvals', { status: 'pending' }, 3],
      ['transactions', { view: 'stuck' }, 2],
      ['support', { status: 'open', awaiting: 'false' }, 4],
      ['reports', { tab: 'transactions', status: 'open' }, 5],
      ['topups', { kind: 'intents', status: 'pending', sort: 'oldest' }, 6],
      ['topups', { kind: 'intents', status: 'success', paid: 'different' }, 3],
      ['withdrawals', { show: 'stuck' }, 2],
      ['catalogue', { section: 'floats' }, 1],
      ['topups', { kind: 'events', status: 'received' }, 0],
      ['exports', {}, 0],
      ['dead-letters', { sort: 'oldest' }, 1],
    ]);
    const support = waitingTiles(queues, ['admin']).find((t) => t.link.to === '/console/support');
    expect(support?.sub).toBe('1 awaiting a reply, oldest 60 s');
    const tile = (key: string) => waitingTiles(queues, ['admin']).find((t) => t.key === key);
    expect(tile('topups-pending')?.sub).toBe('pending over 5 min, oldest 15 min: verify them');
    expect(tile('topups-amount')?.sub).toBe('1 underpaid, 2 overpaid (7 days)');
    expect(tile('withdrawals-stuck')?.sub).toBe('pending over 60 min, oldest 90 min: requery them');
    // Floats and the pool below the alerts' thresholds, with how long they have been low as far as the alerts kept.
    expect(tile('floats')?.label).toBe('Floats below ₦50,000.00');
    expect(tile('floats')?.sub).toBe('provider C, low at least 25 min');
    const floats = (f: Partial<(typeof queues)['floats']>) =>
      waitingTiles({ ...queues, floats: { ...queues.floats, ...f } }, ['admin']).find((t) => t.key === 'floats');
    expect(floats({ low: [], poolLow: true, lowForSeconds: null })).toMatchObject({ value: 1, sub: 'collections pool below ₦0.00' });
    expect(floats({ low: ['a', 'b'], poolLow: true })).toMatchObject({
      value: 3,
      sub: 'collections pool below ₦0.00; provider A, B, low at least 25 min',
    });
    expect(floats({ low: [], lowForSeconds: null })?.sub).toBe('every float funded');
    // Stuck purchases say the age they count from; dead letters how long the oldest has been dead.
    expect(waitingTiles(queues, ['admin']).find((t) => t.link.to === '/console/transactions')?.sub).toBe(
      'processing over 10 min, oldest 15 min',
    );
    expect(waitingTiles(queues, ['admin']).find((t) => t.link.to === '/console/dead-letters')?.sub).toBe('failed for good, oldest 3 h');
  });

  it('a role sees only the tiles of the screens it opens', () => {
    expect(targets(['support']).map(([to]) => to)).toEqual([
      'kyc',
      'transactions',
      'support',
      'reports',
      'topups',
      'topups',
      'withdrawals',
      'topups',
    ]);
    expect(targets(['finance']).map(([to]) => to)).toEqual([
      'approvals',
      'transactions',
      'reports',
      'topups',
      'topups',
      'withdrawals',
      'catalogue',
      'topups',
      'exports',
    ]);
  });

  it('a top-up paid a different amount is flagged, with by how much', () => {
    expect(paidFlag({ amount: 5000, amountPaid: 4000 })).toEqual({ label: 'underpaid', by: 1000 });
    expect(paidFlag({ amount: 5000, amountPaid: 5200 })).toEqual({ label: 'overpaid', by: 200 });
    expect(paidFlag({ amount: 5000, amountPaid: 5000 })).toBeNull();
    expect(paidFlag({ amount: 5000, amountPaid: null })).toBeNull();
  });

  it('a requery says what the processor answered and where the withdrawal stands', () => {
    expect(requeryNotice('wdr_1', 'success', 'success')).toBe('wdr_1: the processor answered "success"; the withdrawal is paid.');
    expect(requeryNotice('wdr_1', 'failed', 'failed')).toBe('wdr_1: the processor answered "failed"; the withdrawal is failed: refunded.');
    expect(requeryNotice('wdr_1', 'pending', 'pending')).toBe(
      'wdr_1: the processor answered "pending"; the withdrawal is still pending: it is polled again.',
    );
    expect(requeryNotice('wdr_1', null, 'success')).toBe('wdr_1: already success; the processor was not asked.');
  });
});
