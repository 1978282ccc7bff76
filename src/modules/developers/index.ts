import { defineModule } from '../../platform/module.js';
import { createDevelopersService, type DevelopersService, type TestWorld } from './service.js';
import { developersOperations } from './operations.js';

/** The developers module (issue 45): API keys and test mode. What it needs, what it provides and what the composition root registers. */
export const developersModule = defineModule({
  name: 'developers',
  needs: ['db', 'clock', 'config', 'ledger', 'identity', 'testWorld'],
  provides: ['developers'],
  create: ({ db, clock, config, ledger, identity, testWorld }) => ({
    developers: createDevelopersService({ db, clock, brand: config.apiKeyBrand, ledger, identity, testWorld }),
  }),
  operations: developersOperations,
});

declare module '../../platform/services.js' {
  interface Services {
    developers: DevelopersService;
    /** Test mode's second instance of the service (issue 45), built by the composition root; null inside it. */
    testWorld: TestWorld | null;
  }
}
