import { defineModule } from '../../platform/module.js';
import { createDevelopersService, type DevelopersService } from './service.js';
import { developersOperations } from './operations.js';

/** The developers module (issue 45): API keys. What it needs, what it provides and what the composition root registers. */
export const developersModule = defineModule({
  name: 'developers',
  needs: ['db', 'clock', 'config'],
  provides: ['developers'],
  create: ({ db, clock, config }) => ({ developers: createDevelopersService({ db, clock, brand: config.apiKeyBrand }) }),
  operations: developersOperations,
});

declare module '../../platform/services.js' {
  interface Services {
    developers: DevelopersService;
  }
}
