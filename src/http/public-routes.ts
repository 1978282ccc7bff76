import type { FastifyInstance } from 'fastify';
import type { Services } from '../platform/services.js';
import { registerKycFileRoute } from './routes/kyc-files.js';
import { registerSmsReportRoute } from './routes/sms-reports.js';
import { loginFailedRoute, notMeRoutes } from './routes/security.js';
import { reportIssueRoute } from './routes/report-issue.js';
import { receiptKeyRoute } from './routes/receipt-key.js';
import { registerPaymentsWebhook } from './routes/payments-webhook.js';
import { registerAirtimeCashWebhook } from './routes/airtime-cash-webhook.js';
import { registerExportFileRoute } from './routes/export-files.js';
import { registerUssdRoute } from './routes/ussd.js';
import { registerWhatsappRoute } from './routes/whatsapp.js';

/** A plain HTTP route's registrar: what it uses of the built service is its parameter's type. */
type RouteRegistrar = (app: FastifyInstance, services: Services) => Promise<void> | void;

/**
 * The plain HTTP routes beside the operations (spec 4.11's webhook, report-issue and login-failed; signed KYC file
 * URLs, the "this wasn't me" link, SMS delivery reports, the receipt key, export downloads). The transport owns them:
 * the modules they call know nothing of HTTP. The spec 4.11 endpoints are also named in public-endpoints.ts for
 * spec:coverage.
 */
const routes: RouteRegistrar[] = [
  registerKycFileRoute,
  registerSmsReportRoute,
  loginFailedRoute,
  notMeRoutes,
  reportIssueRoute,
  receiptKeyRoute,
  registerPaymentsWebhook,
  registerAirtimeCashWebhook,
  registerExportFileRoute,
  registerUssdRoute,
  registerWhatsappRoute,
];

export async function registerPublicRoutes(app: FastifyInstance, services: Services) {
  for (const register of routes) await register(app, services);
}
