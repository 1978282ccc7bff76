import { moduleScope } from './registry.js';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../container.js';
import { allModules } from '../modules/index.js';

/**
 * The plain HTTP routes of the modules (spec 4.11's webhook, report-issue and login-failed; signed KYC file URLs,
 * the "this wasn't me" link, SMS delivery reports, the receipt key), as each module's entry file lists them. The
 * spec 4.11 endpoints are also named in public-endpoints.ts for spec:coverage.
 */
export async function registerPublicRoutes(app: FastifyInstance, services: Services) {
  for (const m of allModules) for (const r of m.routes ?? []) await r(app, moduleScope(m, services));
}
