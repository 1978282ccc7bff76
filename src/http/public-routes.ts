import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { registerKycFileRoute } from '../modules/kyc/file-route.js';
import { loginFailedRoute, notMeRoutes } from '../modules/security/public-routes.js';
import { registerPaymentsWebhook } from '../modules/payments/public-routes.js';
import { registerSmsReportRoute } from '../modules/notifications/sms.js';
import { reportIssueRoute } from '../modules/reports/public-routes.js';
import { receiptKeyRoute } from '../modules/receipts/public-routes.js';

/**
 * The public HTTP endpoints of spec 4.11 (webhook, report-issue, login-failed) are plain routes, not registry
 * operations. A module adds its registrar to this list and its path to public-endpoints.ts.
 */
export type PublicRegistrar = (app: FastifyInstance, services: Services) => Promise<void> | void;

export const publicRouteModules: PublicRegistrar[] = [];

// Signed KYC file URLs (DESIGN §9); not a spec 4.11 endpoint, so not in public-endpoints.ts.
publicRouteModules.push(registerKycFileRoute);

publicRouteModules.push(loginFailedRoute);

// The "this wasn't me" link of credential-change notices; not a spec 4.11 endpoint.
publicRouteModules.push(notMeRoutes);

publicRouteModules.push(registerPaymentsWebhook);

publicRouteModules.push(reportIssueRoute);

// The SMS gateway's delivery reports; not a spec 4.11 endpoint.
publicRouteModules.push(registerSmsReportRoute);

// The receipt verification key; not a spec 4.11 endpoint, so not in public-endpoints.ts.
publicRouteModules.push(receiptKeyRoute);

export async function registerPublicRoutes(app: FastifyInstance, services: Services) {
  for (const r of publicRouteModules) await r(app, services);
}
