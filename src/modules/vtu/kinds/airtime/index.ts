import { z } from 'zod';
import { naira, toKobo, toNaira } from '../../../../kernel/money.js';
import type { Network } from '../../../../kernel/phone.js';
import { fromNetworkService, toNetworkService, vtpassPay, vtpassServices } from '../../../../providers/vtu/vtpass.js';
import { koboOf } from '../../../../providers/vtu/transport.js';
import { assertRecipientNetwork, NETWORK_NAMES } from '../../model.js';
import { amountIssues, catalogueLists } from '../helpers.js';
import { kindOperation, type KindContext, type ServiceKind } from '../kind.js';
import { AIRTIME_AMOUNT, buyAirtimeInput, type AirtimeInput } from './inputs.js';
import { names } from './names.js';

/** The networks airtime is sold on, with the amounts the provider accepts (50 to 50,000 naira unless it says). */
export async function airtimeNetworks(ctx: KindContext) {
  return (await ctx.catalogue((await ctx.route())[0], 'airtime_networks')).map((n) => ({
    id: n.code,
    name: NETWORK_NAMES[n.code as Network] ?? n.name,
    minAmount: n.minAmount !== undefined ? toNaira(n.minAmount) : 50,
    maxAmount: n.maxAmount !== undefined ? toNaira(n.maxAmount) : 50_000,
  }));
}

/** Airtime (spec 4.5): a face value the buyer chooses for a phone on a network; the markup is a fee on top. */
export const airtimeKind: ServiceKind<AirtimeInput> = {
  name: 'airtime',
  label: 'airtime',
  names,
  feeOnTop: true,
  defaultRouting: ['c'],
  purchase: {
    name: 'buyAirtime',
    purpose: 'purchase airtime',
    versioned: true,
    input: buyAirtimeInput,
    errors: ['NETWORK_MISMATCH'],
    // Spec rule 5: the prefix check runs before the PIN, the tier and any debit.
    precheck: (i) => assertRecipientNetwork(i.network, i.phone, i.ported),
  },
  operations: [
    kindOperation({
      name: 'listAirtimeNetworks',
      method: 'GET',
      versioned: true,
      catalogue: true,
      purpose: 'available airtime networks',
      input: z.object({}),
      output: z.object({ items: z.array(z.object({ id: z.string(), name: z.string(), minAmount: naira, maxAmount: naira })) }),
      errors: ['UPSTREAM_ERROR'],
      handler: async (_i, { kind }) => ({ items: await airtimeNetworks(kind) }),
    }),
  ],

  async prepare(ctx, i) {
    assertRecipientNetwork(i.network, i.phone, i.ported);
    const provider = (await ctx.route(i.network))[0];
    return {
      service: 'airtime',
      recipient: i.phone,
      network: i.network,
      ported: Boolean(i.ported),
      provider,
      ...(await ctx.priced(provider, toKobo(i.amount))),
    };
  },
  async quote(ctx, i) {
    return { name: null, ...(await ctx.priced((await ctx.route(i.network))[0], toKobo(i.amount!))) };
  },
  quoteIssues: (v) => amountIssues(v, AIRTIME_AMOUNT),
  repeat: (r, value) => ({ network: r.network ?? '', phone: r.recipient, amount: toNaira(value), ...(r.ported ? { ported: true } : {}) }),

  adapters: {
    c: (p) => ({
      catalogue: catalogueLists(p, {
        airtime_networks: async () =>
          (await vtpassServices(p, 'airtime')).map((s) => ({
            code: fromNetworkService(String(s.serviceID)),
            name: String(s.name),
            price: null,
            minAmount: koboOf(s.minimium_amount ?? s.minimum_amount) ?? undefined,
            maxAmount: koboOf(s.maximum_amount) ?? undefined,
          })),
      }),
      purchase: (req) => vtpassPay(p, req, { serviceID: toNetworkService(req.network!) }),
    }),
  },
};
