import { z } from 'zod';
import { AppError } from '../../../../kernel/errors.js';
import { naira, toNaira } from '../../../../kernel/money.js';
import { orderCatalogue, placeOrder } from '../../../../providers/vtu/order-query.js';
import type { ProviderId } from '../../../../providers/vtu/types.js';
import { catalogueLists, needIssues, unknownProduct } from '../helpers.js';
import { kindOperation, type KindContext, type ServiceKind } from '../kind.js';
import { buyEducationPinInput, type ExamInput } from './inputs.js';
import { names } from './names.js';

async function productAt(ctx: KindContext, provider: ProviderId, exam: string) {
  return (await ctx.catalogue(provider, 'exam_products')).find((e) => e.code === exam);
}

/** Exam PINs (WAEC, NECO, JAMB...): a quantity of one product; JAMB needs the candidate's profile code. */
export const examKind: ServiceKind<ExamInput> = {
  name: 'exam',
  label: 'exam PIN',
  names,
  feeOnTop: false,
  defaultRouting: ['d'],
  purchase: {
    name: 'buyEducationPin',
    purpose: 'buy an exam pin (PIN required)',
    versioned: true,
    input: buyEducationPinInput,
    errors: ['PRICE_CHANGED'],
  },
  operations: [
    kindOperation({
      name: 'listEducationPins',
      method: 'GET',
      catalogue: true,
      purpose: 'exam PIN products with retail prices (extension: the catalogue behind buyEducationPin)',
      input: z.object({}),
      output: z.object({
        items: z.array(z.object({ plan_id: z.string(), name: z.string(), price: naira, requiresProfileId: z.boolean() })),
      }),
      errors: ['UPSTREAM_ERROR'],
      handler: async (_i, { kind }) => {
        const provider = (await kind.route())[0];
        const priced = await kind.retailList(provider, await kind.catalogue(provider, 'exam_products'));
        return {
          items: priced
            .filter((x) => x.retail !== null)
            .map(({ e, retail }) => ({
              plan_id: e.code,
              name: e.name,
              price: toNaira(retail!),
              requiresProfileId: e.code.startsWith('jamb'),
            })),
        };
      },
    }),
  ],

  async prepare(ctx, i) {
    const provider = (await ctx.route())[0];
    const product = await productAt(ctx, provider, i.exam);
    if (!product || product.price === null)
      throw unknownProduct('exam', `exam ${i.exam} is not offered; see listEducationPins`, 'unknown exam');
    if (i.exam.startsWith('jamb') && !i.profile_id)
      throw new AppError('VALIDATION_FAILED', 'profile_id (the JAMB profile code) is required for JAMB PINs', {
        issues: [{ path: 'profile_id', message: 'required for JAMB' }],
      });
    const unit = await ctx.priced(provider, product.price, product);
    const q = BigInt(i.quantity);
    const retail = unit.retail * q;
    ctx.assertPrice(i.amount, retail, `${i.quantity} × ${product.name}`);
    return {
      service: 'exam',
      recipient: i.phone,
      product: i.exam,
      quantity: i.quantity,
      phone: i.phone,
      profileId: i.profile_id,
      ported: false,
      provider,
      wholesale: unit.wholesale * q,
      markup: unit.markup * q,
      retail,
    };
  },
  async quote(ctx, i) {
    const provider = (await ctx.route())[0];
    const product = await productAt(ctx, provider, i.exam!);
    if (!product || product.price === null) throw unknownProduct('exam', 'This exam PIN is not offered; choose another');
    const unit = await ctx.priced(provider, product.price, product);
    const q = BigInt(i.quantity ?? 1);
    return { name: product.name, wholesale: unit.wholesale * q, markup: unit.markup * q, retail: unit.retail * q };
  },
  quoteIssues: (v) => [
    ...needIssues(v, [['exam', 'Choose the exam']]),
    ...(v.quantity !== undefined && v.quantity > 10 ? [{ path: 'quantity', message: 'Quantity can be at most 10' }] : []),
  ],
  async wholesaleAt(ctx, row, provider) {
    const p = (await productAt(ctx, provider, row.product!))?.price;
    return p == null ? null : p * BigInt(row.quantity ?? 1);
  },
  repeat: (r) => ({
    exam: r.product ?? '',
    quantity: r.quantity ?? 1,
    phone: r.phone ?? r.recipient,
    amount: toNaira(r.amount),
    ...(r.profile_id ? { profile_id: r.profile_id } : {}),
  }),

  adapters: {
    d: (p) => ({
      catalogue: catalogueLists(p, { exam_products: () => orderCatalogue(p, '/api/v1/catalogue/exams') }),
      purchase: (req) => placeOrder(p, 'exam', req),
    }),
  },
};
