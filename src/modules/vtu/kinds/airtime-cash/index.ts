import { defineModule } from '../../../../http/registry.js';
import { registerAirtimeCashWebhook } from '../../../../http/routes/airtime-cash-webhook.js';
import { VtuTransport } from '../../../../providers/vtu/transport.js';
import { createAirtimeCashProviderC } from './adapter.js';
import { registerAirtimeCashJobs } from './jobs.js';
import { airtimeCashOperations } from './operations.js';
import { forgetNumbersOnClosure } from './repository.js';
import { createAirtimeCashService, PROVIDER } from './service.js';

/**
 * Airtime-to-cash (issue 32 item 2): its table (migration 0430), service, operations, provider C adapter, webhook and
 * reconciliation job. Provider C's simulator for it is src/sandbox/vtu/airtime-cash.ts.
 */
export const airtimeCashModule = defineModule({
  name: 'airtimeCash',
  needs: ['config', 'db', 'replica', 'clock', 'log', 'ledger', 'notifier', 'events', 'jobs', 'otp', 'sms', 'upstream', 'walletLimits'],
  provides: ['airtimeCash'],
  create: ({ upstream, jobs: _jobs, ...deps }) => {
    const c = deps.config.vtu.providers[PROVIDER];
    const provider = createAirtimeCashProviderC({
      baseUrl: c.url.replace(/\/$/, ''),
      key: c.key,
      secret: c.secret,
      timeoutMs: deps.config.vtu.timeoutMs,
      transport: new VtuTransport(upstream.send),
    });
    return { airtimeCash: createAirtimeCashService({ ...deps, provider }) };
  },
  operations: airtimeCashOperations,
  jobs: [registerAirtimeCashJobs],
  routes: [registerAirtimeCashWebhook],
  // account.closed: the verified sending numbers go; the requests stay (money records).
  subscribers: [({ events }) => events.on('account.closed', ({ userId }) => forgetNumbersOnClosure(userId))],
});
