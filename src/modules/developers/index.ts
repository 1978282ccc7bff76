import { defineModule } from '../../platform/module.js';
import type { LiveWorld, TestWorld } from './deps.js';
import { createDevelopersService, type DevelopersService } from './service.js';
import { developersAdminOperations } from './admin-operations.js';
import { developersOperations } from './operations.js';
import { registerWebhookJobs, subscribeWebhooks } from './webhook-events.js';
import { webhookOperations } from './webhook-operations.js';
import { createWebhooks, type Webhooks } from './webhooks.js';

/** The developers module (issue 45): API keys and test mode. What it needs, what it provides and what the composition root registers. */
export const developersModule = defineModule({
  name: 'developers',
  needs: ['db', 'clock', 'config', 'ledger', 'work', 'identity', 'testWorld', 'jobs', 'events', 'outbox', 'log', 'resolver', 'liveWorld'],
  provides: ['developers', 'webhooks'],
  create: ({ db, clock, config, ledger, work, identity, testWorld, outbox, log, resolver, liveWorld }) => ({
    developers: createDevelopersService({ db, clock, brand: config.apiKeyBrand, ledger, work, identity, testWorld }),
    webhooks: createWebhooks({
      db,
      clock,
      work,
      outbox,
      log,
      resolver,
      secretKey: config.secrets.dataEncryptionKey,
      sandbox: config.webhooksPrivate,
      testWorld,
      liveWorld,
    }),
  }),
  operations: [...developersOperations, ...webhookOperations, ...developersAdminOperations],
  jobs: [registerWebhookJobs],
  subscribers: [subscribeWebhooks],
});

declare module '../../platform/services.js' {
  interface Services {
    developers: DevelopersService;
    /** Signed outbound webhooks (issue 45). */
    webhooks: Webhooks;
    /** Test mode's second instance of the service (issue 45), built by the composition root; null inside it. */
    testWorld: TestWorld | null;
    /** Inside the test world, the live world that built it (its disabled test endpoints' e-mails); null in the live world. */
    liveWorld: LiveWorld | null;
  }
}
