import { z } from 'zod';
import { AppError } from '../../../../kernel/errors.js';
import { toKobo, toNaira } from '../../../../kernel/money.js';
import { orderCatalogue, orderVerify, placeOrder } from '../../../../providers/vtu/order-query.js';
import { amountIssues, catalogueLists, unknownProduct, verifyAt } from '../helpers.js';
import { kindOperation, type ServiceKind } from '../kind.js';
import { BETTING_AMOUNT, companyInput, customerIdInput, fundBetInput, type BettingInput } from './inputs.js';
import { names } from './names.js';

/** Betting wallet funding: the amount the buyer chooses for a customer id at a bet company; the markup is a fee on top. */
export const bettingKind: ServiceKind<BettingInput> = {
  name: 'betting',
  label: 'betting wallet funding',
  names,
  feeOnTop: true,
  defaultRouting: ['d'],
  purchase: {
    name: 'fundBet',
    purpose: 'fund a betting wallet (PIN required)',
    versioned: true,
    input: fundBetInput,
  },
  operations: [
    kindOperation({
      name: 'listBetCompanies',
      method: 'GET',
      versioned: true,
      catalogue: true,
      purpose: 'supported betting companies',
      input: z.object({}),
      output: z.object({ items: z.array(z.object({ id: z.string(), name: z.string() })) }),
      errors: ['UPSTREAM_ERROR'],
      handler: async (_i, { kind }) => ({
        items: (await kind.catalogue((await kind.route())[0], 'bet_companies')).map((c) => ({ id: c.code, name: c.name })),
      }),
    }),
    kindOperation({
      name: 'verifyBetAccount',
      method: 'POST',
      versioned: true,
      purpose: 'look up betting customer',
      input: z.object({ betting_company: companyInput, customer_id: customerIdInput }),
      output: z.object({ customerName: z.string(), customer_id: z.string(), betting_company: z.string() }),
      errors: ['NOT_FOUND', 'UPSTREAM_ERROR'],
      handler: async (input, { kind }) => {
        const r = await verifyAt(kind, { account: input.customer_id, product: input.betting_company });
        if (!r.found) throw new AppError('NOT_FOUND', `Customer ${input.customer_id} was not found at ${input.betting_company}`);
        return { customerName: r.customerName!, customer_id: input.customer_id, betting_company: input.betting_company };
      },
    }),
  ],

  async prepare(ctx, i) {
    const provider = (await ctx.route())[0];
    const companies = await ctx.catalogue(provider, 'bet_companies');
    if (!companies.some((c) => c.code === i.betting_company))
      throw unknownProduct(
        'betting_company',
        `betting_company ${i.betting_company} is not supported; see listBetCompanies`,
        'unknown company',
      );
    return {
      service: 'betting',
      recipient: i.customer_id,
      product: i.betting_company,
      ported: false,
      provider,
      ...(await ctx.priced(provider, toKobo(i.amount))),
    };
  },
  async quote(ctx, i) {
    return { name: null, ...(await ctx.priced((await ctx.route())[0], toKobo(i.amount!))) };
  },
  quoteIssues: (v) => amountIssues(v, BETTING_AMOUNT),
  repeat: (r, value) => ({ betting_company: r.product ?? '', customer_id: r.recipient, amount: toNaira(value) }),

  adapters: {
    d: (p) => ({
      catalogue: catalogueLists(p, { bet_companies: () => orderCatalogue(p, '/api/v1/catalogue/betting') }),
      verify: (input) => orderVerify(p, { service: 'betting', service_code: input.product, customer_id: input.account }),
      purchase: (req) => placeOrder(p, 'betting', req),
    }),
  },
};
