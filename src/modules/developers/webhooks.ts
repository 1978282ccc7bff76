import { notFound } from '../../kernel/errors.js';
import { createEndpoint, disableEndpoint, listEndpoints } from './webhook-endpoints.js';
import { fanout, listDeliveries, resend } from './webhook-deliveries.js';
import { checkUrl, modeOf, type WebhookDeps, type WebhookEventJob } from './webhook-model.js';
import { deliver, testEndpointDisabled } from './webhook-send.js';
import type { DeliveryPage, NewEndpoint, WebhookHolder } from './deps.js';
import { shadowOwner } from './test-mode.js';

// The events, jobs, rows and views live in webhook-model.ts; importers keep using this module.
export * from './webhook-model.js';

/**
 * Signed outbound webhooks (issue 45): a customer's endpoints receive its events (a purchase delivered, failed or
 * refunded, money into the wallet), each delivery signed Stripe-style with the endpoint's own secret over the
 * timestamp and the body (`Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`), retried by the
 * job queue with backoff for about three days, logged with status and response time, resendable; an endpoint whose
 * delivery fails every attempt is disabled and its owner e-mailed. Outside the sandbox an endpoint must be https on a
 * public address.
 *
 * Endpoints have a mode, like keys (docs/decisions.md "Webhook endpoints live in their mode's world"): a live endpoint
 * is this service's and takes live events; a test endpoint is the test world's, held there for the customer's shadow
 * account, and takes only what test keys do there. The live world asks the test world for the test ones.
 */
export function createWebhooks(deps: WebhookDeps) {
  const here = modeOf(deps);
  /** The test world's webhooks and the caller's shadow account there (made when `make`; null when there is none). */
  const there = async (user: WebhookHolder, make: boolean) => {
    if (!deps.testWorld) return null;
    const [webhooks, developers] = await Promise.all([deps.testWorld.webhooks(), deps.testWorld.developers()]);
    const id = make
      ? await developers.shadow.ensure(await shadowOwner(deps.db, user))
      : await developers.shadow.idOf(user.email).catch(() => null);
    return id ? { webhooks, shadow: { ...user, id } } : null;
  };
  return {
    async createEndpoint(user: WebhookHolder, input: NewEndpoint) {
      if (input.mode === here) return createEndpoint(deps, user.id, input);
      // This world's address rule first: a test endpoint is held to the rule of the deployment it is registered on.
      await checkUrl(deps, input.url);
      const tw = await there(user, true);
      if (!tw) throw notFound('Test mode');
      return tw.webhooks.createEndpoint(tw.shadow, input);
    },
    /** Live and test endpoints, newest first. */
    async listEndpoints(user: WebhookHolder) {
      const own = await listEndpoints(deps, user.id);
      const tw = await there(user, false);
      const tests = tw ? await tw.webhooks.listEndpoints(tw.shadow) : [];
      return [...own, ...tests].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
    },
    async disableEndpoint(user: WebhookHolder, id: string) {
      const own = await disableEndpoint(deps, user.id, id);
      if (own) return own;
      const tw = await there(user, false);
      if (!tw) throw notFound('Webhook endpoint');
      return tw.webhooks.disableEndpoint(tw.shadow, id);
    },
    /** The delivery log of one mode's endpoints. */
    async listDeliveries(user: WebhookHolder, page: DeliveryPage) {
      if (page.mode === here) return listDeliveries(deps, user.id, page);
      const tw = await there(user, false);
      return tw ? tw.webhooks.listDeliveries(tw.shadow, page) : [];
    },
    async resend(user: WebhookHolder, id: string) {
      const own = await resend(deps, user.id, id);
      if (own) return own;
      const tw = await there(user, false);
      if (!tw) throw notFound('Webhook delivery (or its endpoint is disabled)');
      return tw.webhooks.resend(tw.shadow, id);
    },
    fanout: (e: WebhookEventJob) => fanout(deps, e),
    deliver: (deliveryId: string, attempt: number) => deliver(deps, deliveryId, attempt),
    /** Asked by the test world (LiveWorld): e-mails the customer of that e-mail that its test endpoint was disabled. */
    testEndpointDisabled: (n: { email: string; url: string; reason: string }) => testEndpointDisabled(deps, n),
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
