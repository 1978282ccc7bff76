import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { networkInput, providerInput } from './kinds/common-inputs.js';
import { serviceInput } from './kinds/index.js';
import { routingProblem } from './routing.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['vtu']);

const providerOutput = z.object({
  id: z.string(),
  name: z.string().meta({ description: 'the business behind the letter (VTU_PROVIDER_<A-D>_NAME)' }),
});
const serviceRoutingOutput = z.object({
  service: z.string(),
  label: z.string(),
  providers: z.array(providerOutput).meta({ description: "the providers with this service's adapter: the only ones a routing may name" }),
  configured: z.object({ providers: z.array(providerOutput), source: z.enum(['configuration', 'default']) }).meta({
    description: "the order without a console row: VTU_ROUTING's, else the service's default",
  }),
  routes: z.array(
    z.object({
      network: z.string().nullable().meta({ description: 'null: the whole service' }),
      providers: z.array(providerOutput),
      source: z.enum(['console', 'configuration', 'default']),
      own: z.boolean().meta({
        description:
          "true when this order is a console row of its own (adminClearRouting removes it); a network without one follows the service's",
      }),
      setBy: z.string().nullable(),
      setAt: z.string().nullable(),
    }),
  ),
});

const target = {
  service: serviceInput,
  network: networkInput
    .optional()
    .meta({ description: 'one network (services sold per network: airtime, data); omitted: the whole service' }),
};
/** A routing change's own checks (routing.ts routingProblem): per network where sold per network, adapters, once each. */
function checked(v: { service: string; network?: string; providers?: string[] }, c: z.RefinementCtx) {
  const p = routingProblem({ service: v.service, network: v.network, providers: v.providers ?? ['-'] });
  if (p && (v.providers || p.path === 'network')) c.addIssue({ code: 'custom', message: p.message, path: [p.path] });
}
const where = (i: { service: string; network?: string }) => `${i.service}:${i.network ?? '*'}`;

/** The operators' provider routing (issue 45): per service and network, by the providers' names. */
export const routingOperations = [
  defineOperation({
    name: 'adminGetRouting',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'GET',
    purpose:
      "each service's provider order for the whole service and each network, by the providers' names, and where each comes from (set in the console, VTU_ROUTING, or the default)",
    input: z.object({}),
    output: z.object({ items: z.array(serviceRoutingOutput) }),
    handler: async (_i, ctx) => ({ items: await ctx.api.vtu.adminRouting() }),
  }),
  defineOperation({
    name: 'adminSetRouting',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    gates: { stepUp: true },
    purpose:
      "set a service's provider order (for one network, or the whole service): the first is tried first, the rest are fallbacks; it wins over VTU_ROUTING",
    input: z
      .object({
        ...target,
        providers: z
          .array(providerInput, { error: 'providers must be a list of providers (a-d)' })
          .max(4, 'at most 4 providers')
          .meta({ description: "providers in order, each once, only providers with the service's adapter" }),
      })
      .superRefine(checked),
    output: z.object({ routing: serviceRoutingOutput }),
    handler: async (i, ctx) => {
      const before = await ctx.api.vtu.adminRoutingRow(i.service, i.network);
      const routing = await ctx.api.vtu.adminSetRouting(ctx.user.id, i);
      ctx.audit.target('vtu_routing', where(i));
      ctx.audit.change(before && { providers: before }, { providers: i.providers });
      return { routing };
    },
  }),
  defineOperation({
    name: 'adminClearRouting',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    gates: { stepUp: true },
    purpose: "remove a console provider order: the network follows the service's, the service VTU_ROUTING or its default",
    input: z.object(target).superRefine(checked),
    output: z.object({ cleared: z.boolean(), routing: serviceRoutingOutput }),
    handler: async (i, ctx) => {
      const before = await ctx.api.vtu.adminRoutingRow(i.service, i.network);
      const out = await ctx.api.vtu.adminClearRouting(i);
      ctx.audit.target('vtu_routing', where(i));
      ctx.audit.change(before && { providers: before }, null);
      return out;
    },
  }),
];
