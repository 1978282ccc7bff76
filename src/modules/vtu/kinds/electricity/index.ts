import { z } from 'zod';
import { AppError } from '../../../../kernel/errors.js';
import { naira, toKobo, toNaira } from '../../../../kernel/money.js';
import { vtpassPay, vtpassServices, vtpassVerify } from '../../../../providers/vtu/vtpass.js';
import { amountIssues, catalogueLists, verifyAt } from '../helpers.js';
import { kindOperation, type ServiceKind } from '../kind.js';
import { buyElectricityInput, discoInput, ELECTRICITY_AMOUNT, meterInput, meterTypeInput, type ElectricityInput } from './inputs.js';
import { names } from './names.js';

/**
 * Electricity: a token (prepaid) or a bill payment (postpaid) of the amount the buyer chooses, for a meter at a
 * distribution company; the markup is a fee on top. The token and units come with the delivery.
 */
export const electricityKind: ServiceKind<ElectricityInput> = {
  name: 'electricity',
  label: 'electricity token',
  names,
  feeOnTop: true,
  defaultRouting: ['c'],
  purchase: {
    name: 'buyElectricity',
    purpose: 'buy an electricity token (PIN required, minimum 1,000 naira)',
    versioned: true,
    input: buyElectricityInput,
  },
  operations: [
    kindOperation({
      name: 'listElectricityPlans',
      method: 'GET',
      versioned: true,
      catalogue: true,
      purpose: 'available distribution companies',
      input: z.object({}),
      output: z.object({ items: z.array(z.object({ id: z.string(), name: z.string(), types: z.array(z.string()), minAmount: naira })) }),
      errors: ['UPSTREAM_ERROR'],
      handler: async (_i, { kind }) => ({
        items: (await kind.catalogue((await kind.route())[0], 'electricity_discos')).map((d) => ({
          id: d.code,
          name: d.name,
          types: ['prepaid', 'postpaid'],
          minAmount: 1000,
        })),
      }),
    }),
    kindOperation({
      name: 'verifyMeter',
      method: 'POST',
      versioned: true,
      purpose: 'look up meter/customer name',
      input: z.object({ meter: meterInput, plan: discoInput, type: meterTypeInput }),
      output: z.object({ customerName: z.string(), address: z.string().nullable(), meter: z.string(), plan: z.string(), type: z.string() }),
      errors: ['NOT_FOUND', 'UPSTREAM_ERROR'],
      handler: async (input, { kind }) => {
        const r = await verifyAt(kind, { account: input.meter, product: input.plan, meterType: input.type });
        if (!r.found)
          throw new AppError('NOT_FOUND', `Meter ${input.meter} was not found at ${input.plan}${r.message ? `: ${r.message}` : ''}`);
        return { customerName: r.customerName!, address: r.address ?? null, meter: input.meter, plan: input.plan, type: input.type };
      },
    }),
  ],

  async prepare(ctx, i) {
    const provider = (await ctx.route())[0];
    return {
      service: 'electricity',
      recipient: i.meter,
      product: i.plan,
      meterType: i.type,
      phone: i.phone,
      ported: false,
      provider,
      ...(await ctx.priced(provider, toKobo(i.amount))),
    };
  },
  async quote(ctx, i) {
    return { name: null, ...(await ctx.priced((await ctx.route())[0], toKobo(i.amount!))) };
  },
  quoteIssues: (v) => amountIssues(v, ELECTRICITY_AMOUNT),
  repeat: (r, value) => ({
    plan: r.product ?? '',
    meter: r.recipient,
    type: r.meter_type ?? 'prepaid',
    amount: toNaira(value),
    phone: r.phone ?? '',
  }),

  adapters: {
    c: (p) => ({
      catalogue: catalogueLists(p, {
        electricity_discos: async () =>
          (await vtpassServices(p, 'electricity-bill')).map((s) => ({
            code: String(s.serviceID).replace(/-electric$/, ''),
            name: String(s.name),
            price: null,
          })),
      }),
      verify: (input) => vtpassVerify(p, { billersCode: input.account, serviceID: `${input.product}-electric`, type: input.meterType }),
      purchase: (req) => vtpassPay(p, req, { serviceID: `${req.product}-electric`, variation_code: req.meterType }),
    }),
  },
};
