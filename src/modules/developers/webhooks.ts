import { createEndpoint, disableEndpoint, listEndpoints } from './webhook-endpoints.js';
import { fanout, listDeliveries, resend } from './webhook-deliveries.js';
import type { WebhookDeps, WebhookEvent, WebhookEventJob } from './webhook-model.js';
import { deliver } from './webhook-send.js';

// The events, jobs, rows and views live in webhook-model.ts; importers keep using this module.
export * from './webhook-model.js';

/**
 * Signed outbound webhooks (issue 45): a customer's endpoints receive its events (a purchase delivered, failed or
 * refunded, money into the wallet), each delivery signed Stripe-style with the endpoint's own secret over the
 * timestamp and the body (`Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`), retried by the
 * job queue with backoff for about three days, logged with status and response time, resendable; an endpoint whose
 * delivery fails every attempt is disabled and its owner e-mailed. Outside the sandbox an endpoint must be https on a
 * public address.
 */
export function createWebhooks(deps: WebhookDeps) {
  return {
    createEndpoint: (userId: string, input: { url: string; events: WebhookEvent[] }) => createEndpoint(deps, userId, input),
    listEndpoints: (userId: string) => listEndpoints(deps, userId),
    disableEndpoint: (userId: string, id: string) => disableEndpoint(deps, userId, id),
    listDeliveries: (userId: string, page: { limit: number; offset: number; endpointId?: string }) => listDeliveries(deps, userId, page),
    resend: (userId: string, id: string) => resend(deps, userId, id),
    fanout: (e: WebhookEventJob) => fanout(deps, e),
    deliver: (deliveryId: string, attempt: number) => deliver(deps, deliveryId, attempt),
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
