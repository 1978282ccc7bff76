import { describe, expect, it } from 'vitest';
import { waitingTiles } from './screens/Dashboard';

/** Issue 44: the dashboard's waiting tiles, each opening its exact list, for the screens the operator's roles open. */
const queues = {
  stuckPurchases: { count: 2, oldestAgeSeconds: 900, stuckAfterSeconds: 600 },
  webhooks: { creditedLastHour: 0, lagSeconds: { max: null, avg: null }, waiting: 0, oldestWaitingSeconds: null },
  jobs: { due: 0, lagSeconds: null, byQueue: [] },
  deadLetters: { total: 1, byQueue: [] },
  kyc: { pending: 0, oldestAgeSeconds: null, byTier: [] },
  approvals: { pending: 3, oldestAgeSeconds: 300 },
  support: { open: 4, awaitingReply: 1, oldestAwaitingSeconds: 60 },
  reports: { open: 5, oldestAgeSeconds: 7200 },
};
const targets = (roles: string[]) => waitingTiles(queues, roles).map((t) => [t.to, t.search ?? {}, t.value]);

describe('waiting tiles', () => {
  it('an admin sees every tile, each with the filter of its list', () => {
    expect(targets(['admin'])).toEqual([
      ['kyc', {}, 0],
      ['approvals', { status: 'pending' }, 3],
      ['transactions', { view: 'stuck' }, 2],
      ['support', { status: 'open', awaiting: 'false' }, 4],
      ['reports', { tab: 'transactions', status: 'open' }, 5],
      ['topups', {}, 0],
      ['exports', {}, 0],
      ['dead-letters', {}, 1],
    ]);
    const support = waitingTiles(queues, ['admin']).find((t) => t.to === 'support');
    expect(support?.sub).toBe('1 awaiting a reply, oldest 60 s');
  });

  it('a role sees only the tiles of the screens it opens', () => {
    expect(targets(['support']).map(([to]) => to)).toEqual(['kyc', 'transactions', 'support', 'reports', 'topups']);
    expect(targets(['finance']).map(([to]) => to)).toEqual(['approvals', 'transactions', 'reports', 'topups', 'exports']);
  });
});
