import { defineModule } from '../../../../platform/module.js';
import { VtuTransport } from '../../../../providers/vtu/transport.js';
import { AIRTIME_CASH_ADAPTERS, type AirtimeCashProvider } from './adapter.js';
import { registerAirtimeCashJobs } from './jobs.js';
import { airtimeCashOperations } from './operations.js';
import { forgetNumbersOnClosure } from './repository.js';
import { AIRTIME_CASH_PROVIDERS, airtimeCashRouting, type AirtimeCashProviderId } from './routing.js';
import { createAirtimeCashService, type AirtimeCashService } from './service.js';

/**
 * Airtime-to-cash (issue 32 item 2): its table (migration 0430), service, operations, provider adapters (C), webhook and
 * reconciliation job. Listed among the inbound kinds (../index.ts, INBOUND_KINDS: its routing check, the floats' lists,
 * its simulator, simulator.ts); its module line is in modules/index.ts (docs/decisions.md).
 */
export const airtimeCashModule = defineModule({
  name: 'airtimeCash',
  needs: [
    'config',
    'db',
    'replica',
    'clock',
    'log',
    'ledger',
    'notifier',
    'events',
    'work',
    'jobs',
    'otp',
    'sms',
    'upstream',
    'walletLimits',
  ],
  provides: ['airtimeCash'],
  create: ({ upstream, jobs: _jobs, ...deps }) => {
    const transport = new VtuTransport(upstream.send);
    // Every provider with an adapter, built once; the routing (VTU_ROUTING's airtime_cash) picks where requests go,
    // and a request's requery and webhook go to the provider it was sent to (its row's provider).
    const providers = Object.fromEntries(
      AIRTIME_CASH_PROVIDERS.map((p) => {
        const c = deps.config.vtu.providers[p];
        const adapter = AIRTIME_CASH_ADAPTERS[p]({
          baseUrl: c.url.replace(/\/$/, ''),
          key: c.key,
          secret: c.secret,
          timeoutMs: deps.config.vtu.timeoutMs,
          transport,
        });
        return [p, adapter];
      }),
    ) as Record<AirtimeCashProviderId, AirtimeCashProvider>;
    const routing = airtimeCashRouting(deps.config.vtu.routing);
    return { airtimeCash: createAirtimeCashService({ ...deps, providers, routing }) };
  },
  operations: airtimeCashOperations,
  jobs: [registerAirtimeCashJobs],
  // account.closed: the verified sending numbers go; the requests stay (money records).
  subscribers: [({ events }) => events.on('account.closed', ({ userId }, change) => forgetNumbersOnClosure(change, userId))],
});

declare module '../../../../platform/services.js' {
  interface Services {
    /** Airtime-to-cash (issue 32): inbound airtime credited on the provider's confirmation. */
    airtimeCash: AirtimeCashService;
  }
}
