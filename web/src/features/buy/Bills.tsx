import { Alert, Button, NativeSelect, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { vtuQueries } from '../../api/queries/vtu';
import { AMOUNT_BOUNDS, bettingSchema, cableSchema, electricitySchema, examSchema } from '../../api/buy-schemas';
import { takeDraft } from '../../app/draft';
import { errorMessage } from '../../app/errors';
import { formatNaira } from '../../app/format';
import { AmountInput } from '../../components/AmountInput';
import { amountProps, digitsProps, showServerIssues, useSchemaForm, type FieldHints } from '../../components/form';
import type { PurchaseRequest } from './buy-once';
import { ConfirmPurchase } from './ConfirmPurchase';
import type { PricedAt } from './price-level';
import { SavedBills } from './SavedBills';
import { useKeepDraft } from './use-keep-draft';
import { capitalised, productName } from '../../app/catalogue-labels';
import * as api from '../../api/calls';

/** A draft's field as text ('' when absent). */
const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const amountOf = (v: unknown): number | '' => (typeof v === 'number' ? v : '');

type Ready = {
  request: PurchaseRequest;
  price: number;
  summary: string;
  lines?: [string, string][];
  /** The price level a quote named (issue 45); the reviews priced from a list leave it to ConfirmPurchase. */
  level?: PricedAt;
  reprice?: () => Promise<number | undefined>;
};

/** What each bill field's rule asks for, in the person's words (the pattern rules the generic messages cannot say). */
const HINTS: FieldHints = {
  identifier: 'bills.providerRequired',
  iuc: 'bills.iucInvalid',
  plan_id: 'bills.tvPlanRequired',
  plan: 'bills.discoRequired',
  meter: 'bills.meterInvalid',
  betting_company: 'bills.companyRequired',
  customer_id: 'bills.customerIdInvalid',
  exam: 'bills.examRequired',
  profile_id: 'bills.profileIdInvalid',
  phone: 'buy.phoneInvalid',
};

/**
 * A bill form: its fields, the customer check (name shown before any money moves), then ConfirmPurchase. The review
 * button stays enabled: a submit with a field its rule refuses says under that field what is wrong.
 */
function BillForm({
  children,
  ready,
  onReview,
  error,
  busy,
  onReset,
}: {
  children: ReactNode;
  ready: Ready | null;
  onReview(e?: FormEvent<HTMLFormElement>): void;
  error: unknown;
  busy: boolean;
  onReset(): void;
}) {
  const { t } = useTranslation();
  return (
    <Stack>
      <form onSubmit={onReview} noValidate>
        <Stack>
          <fieldset disabled={ready !== null} style={{ border: 0, padding: 0, margin: 0 }}>
            <Stack>{children}</Stack>
          </fieldset>
          {error ? (
            <Alert color="red" role="alert">
              {errorMessage(error)}
            </Alert>
          ) : null}
          {!ready && (
            <Button type="submit" loading={busy}>
              {t('buy.review')}
            </Button>
          )}
        </Stack>
      </form>
      {ready && <ConfirmPurchase {...ready} onCancel={onReset} />}
    </Stack>
  );
}

/** A face value's fee and total at the buyer's price level (quotePurchase), as the purchase charges them. */
const quote = (service: 'electricity' | 'betting', amount: number) => api.quotePurchase({ service, amount });

export function CableBuy() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const providers = useQuery(vtuQueries.cableProviders());
  const [draft] = useState(() => takeDraft('cable') ?? {});
  const form = useSchemaForm(
    cableSchema,
    { identifier: text(draft.identifier), iuc: text(draft.iuc), plan_id: text(draft.plan_id), phone: text(draft.phone) },
    HINTS,
  );
  const values = form.getValues();
  const [ready, setReady] = useState<Ready | null>(null);
  const [underFields, setUnderFields] = useState(false);
  useKeepDraft('cable', values);
  const plans = useQuery(vtuQueries.cablePlans(values.identifier));
  const verify = useMutation({
    mutationFn: async (c: { identifier: string; iuc: string; plan_id: string; phone: string }) => ({
      c,
      v: await api.verifyCableIUC({ iuc: c.iuc, identifier: c.identifier }),
    }),
    onSuccess: ({ c, v }) => {
      const plan = plans.data!.items.find((p) => p.plan_id === c.plan_id)!;
      setReady({
        request: { service: 'cable', ...c, amount: plan.price },
        price: plan.price,
        summary: t('bills.customer', { name: v.customerName }),
        lines: [
          [t('bills.iuc'), c.iuc],
          [t('bills.tvPlan'), plan.name],
          [t('buy.fee'), formatNaira(0)],
          [t('buy.total'), formatNaira(plan.price)],
        ],
        reprice: async () =>
          (await qc.fetchQuery({ ...vtuQueries.cablePlans(c.identifier), staleTime: 0 })).items.find((p) => p.plan_id === c.plan_id)?.price,
      });
    },
    onError: (err) => setUnderFields(showServerIssues(form, err, HINTS)),
  });
  const review = form.onSubmit((v) => {
    const c = cableSchema.safeParse(v);
    if (!c.success) return;
    // The plan list is the price list: a plan it no longer holds is chosen again.
    if (!plans.data?.items.some((p) => p.plan_id === c.data.plan_id)) return form.setFieldError('plan_id', t('bills.tvPlanRequired'));
    verify.mutate(c.data);
  });
  return (
    <BillForm
      ready={ready}
      onReview={review}
      error={underFields ? null : verify.error}
      busy={verify.isPending}
      onReset={() => setReady(null)}
    >
      <SavedBills
        kind="smartcard"
        onPick={(b) =>
          form.setValues({
            identifier: b.provider ?? '',
            iuc: b.recipient,
            plan_id: b.provider === values.identifier ? values.plan_id : '',
          })
        }
      />
      <NativeSelect
        label={t('bills.provider')}
        {...form.getInputProps('identifier')}
        onChange={(e) => (form.setFieldValue('identifier', e.currentTarget.value), form.setFieldValue('plan_id', ''))}
        data={[{ value: '', label: '—' }, ...(providers.data?.items ?? []).map((p) => ({ value: p.id, label: productName(p.name) }))]}
        required
      />
      <TextInput label={t('bills.iuc')} inputMode="numeric" {...digitsProps(form, 'iuc')} required />
      <NativeSelect
        label={t('bills.tvPlan')}
        {...form.getInputProps('plan_id')}
        data={[
          { value: '', label: '—' },
          ...(plans.data?.items ?? []).map((p) => ({ value: p.plan_id, label: `${p.name} · ${formatNaira(p.price)}` })),
        ]}
        disabled={!values.identifier}
        required
      />
      <TextInput label={t('buy.phone')} type="tel" {...form.getInputProps('phone')} required />
    </BillForm>
  );
}

export function ElectricityBuy() {
  const { t } = useTranslation();
  // The catalogue's meter types in the reader's language; a type it does not know, capitalised (issue 43).
  const meterTypeName = (x: string) =>
    x === 'prepaid' ? t('bills.meterPrepaid') : x === 'postpaid' ? t('bills.meterPostpaid') : capitalised(x);
  const discos = useQuery(vtuQueries.discos());
  const [draft] = useState(() => takeDraft('electricity') ?? {});
  const form = useSchemaForm(
    electricitySchema,
    {
      plan: text(draft.plan),
      type: text(draft.type) || 'prepaid',
      meter: text(draft.meter),
      amount: amountOf(draft.amount),
      phone: text(draft.phone),
    },
    HINTS,
  );
  const values = form.getValues();
  const [ready, setReady] = useState<Ready | null>(null);
  const [underFields, setUnderFields] = useState(false);
  const { type, ...rest } = values;
  useKeepDraft('electricity', { ...rest, ...(values.meter || values.plan ? { type } : {}) });
  const disco = discos.data?.items.find((d) => d.id === values.plan);
  const min = disco?.minAmount ?? AMOUNT_BOUNDS.electricity[0];
  const verify = useMutation({
    mutationFn: async (c: { plan: string; meter: string; type: 'prepaid' | 'postpaid'; amount: number; phone: string }) => ({
      c,
      v: await api.verifyMeter({ meter: c.meter, plan: c.plan, type: c.type }),
      q: await quote('electricity', c.amount),
    }),
    onSuccess: ({ c, v, q }) =>
      setReady({
        request: { service: 'electricity', ...c },
        price: q.total,
        lines: [
          [t('bills.meter'), c.meter],
          [t('bills.disco'), disco?.name ?? c.plan],
          [t('buy.amount'), formatNaira(q.amount)],
          [t('buy.fee'), formatNaira(q.fee)],
          [t('buy.total'), formatNaira(q.total)],
        ],
        level: q.level,
        summary: `${disco?.name ?? c.plan} · ${meterTypeName(c.type)} · ${t('bills.customer', { name: v.customerName })}${v.address ? ` · ${v.address}` : ''}`,
      }),
    onError: (err) => setUnderFields(showServerIssues(form, err, HINTS)),
  });
  const review = form.onSubmit((v) => {
    const c = electricitySchema.safeParse(v);
    if (!c.success) return;
    // A company's own minimum above the service's floor, as the company list states it.
    if (c.data.amount < min) return form.setFieldError('amount', t('form.atLeast', { minimum: formatNaira(min) }));
    verify.mutate(c.data);
  });
  return (
    <BillForm
      ready={ready}
      onReview={review}
      error={underFields ? null : verify.error}
      busy={verify.isPending}
      onReset={() => setReady(null)}
    >
      <SavedBills
        kind="meter"
        onPick={(b) => form.setValues({ plan: b.provider ?? '', meter: b.recipient, type: b.meterType ?? 'prepaid' })}
      />
      <NativeSelect
        label={t('bills.disco')}
        {...form.getInputProps('plan')}
        data={[{ value: '', label: '—' }, ...(discos.data?.items ?? []).map((d) => ({ value: d.id, label: d.name }))]}
        required
      />
      <NativeSelect
        label={t('bills.meterType')}
        {...form.getInputProps('type')}
        data={(disco?.types ?? ['prepaid', 'postpaid']).map((x) => ({ value: x, label: meterTypeName(x) }))}
      />
      <TextInput label={t('bills.meter')} inputMode="numeric" {...digitsProps(form, 'meter')} required />
      <AmountInput label={t('buy.amount')} min={min} max={AMOUNT_BOUNDS.electricity[1]} {...amountProps(form, 'amount')} />
      <TextInput label={t('buy.phone')} type="tel" {...form.getInputProps('phone')} required />
    </BillForm>
  );
}

export function BettingBuy() {
  const { t } = useTranslation();
  const companies = useQuery(vtuQueries.betCompanies());
  const [draft] = useState(() => takeDraft('betting') ?? {});
  const form = useSchemaForm(
    bettingSchema,
    { betting_company: text(draft.betting_company), customer_id: text(draft.customer_id), amount: amountOf(draft.amount) },
    HINTS,
  );
  const [ready, setReady] = useState<Ready | null>(null);
  const [underFields, setUnderFields] = useState(false);
  useKeepDraft('betting', form.getValues());
  const verify = useMutation({
    mutationFn: async (c: { betting_company: string; customer_id: string; amount: number }) => ({
      c,
      v: await api.verifyBetAccount({ betting_company: c.betting_company, customer_id: c.customer_id }),
      q: await quote('betting', c.amount),
    }),
    onSuccess: ({ c, v, q }) =>
      setReady({
        request: { service: 'betting', ...c },
        price: q.total,
        summary: t('bills.customer', { name: v.customerName }),
        level: q.level,
      }),
    onError: (err) => setUnderFields(showServerIssues(form, err, HINTS)),
  });
  const review = form.onSubmit((v) => {
    const c = bettingSchema.safeParse(v);
    if (c.success) verify.mutate(c.data);
  });
  return (
    <BillForm
      ready={ready}
      onReview={review}
      error={underFields ? null : verify.error}
      busy={verify.isPending}
      onReset={() => setReady(null)}
    >
      <SavedBills kind="betting" onPick={(b) => form.setValues({ betting_company: b.provider ?? '', customer_id: b.recipient })} />
      <NativeSelect
        label={t('bills.company')}
        {...form.getInputProps('betting_company')}
        data={[{ value: '', label: '—' }, ...(companies.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }))]}
        required
      />
      <TextInput label={t('bills.customerId')} {...form.getInputProps('customer_id')} required />
      <AmountInput label={t('buy.amount')} min={AMOUNT_BOUNDS.betting[0]} max={AMOUNT_BOUNDS.betting[1]} {...amountProps(form, 'amount')} />
    </BillForm>
  );
}

export function ExamBuy() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const pins = useQuery(vtuQueries.examPins());
  const [draft] = useState(() => takeDraft('exam') ?? {});
  const form = useSchemaForm(
    examSchema,
    {
      exam: text(draft.exam),
      quantity: typeof draft.quantity === 'number' ? draft.quantity : (1 as number | ''),
      phone: text(draft.phone),
      profile_id: text(draft.profile_id),
    },
    HINTS,
  );
  const values = form.getValues();
  const [ready, setReady] = useState<Ready | null>(null);
  const { quantity, ...rest } = values;
  useKeepDraft('exam', { ...rest, ...(values.exam ? { quantity } : {}) });
  const product = pins.data?.items.find((p) => p.plan_id === values.exam);
  const q = typeof quantity === 'number' ? quantity : 0;
  const review = form.onSubmit((v) => {
    const c = examSchema.safeParse(v);
    if (!c.success) return;
    if (!product) return form.setFieldError('exam', t('bills.examRequired'));
    if (product.requiresProfileId && !c.data.profile_id) return form.setFieldError('profile_id', t('bills.profileIdInvalid'));
    const { exam, quantity: n, phone } = c.data;
    const profile_id = product.requiresProfileId ? c.data.profile_id : undefined;
    const price = product.price * n;
    setReady({
      request: { service: 'exam', exam, quantity: n, phone, amount: price, ...(profile_id ? { profile_id } : {}) },
      price,
      summary: `${n} × ${product.name}`,
      reprice: async () => {
        const fresh = await qc.fetchQuery({ ...vtuQueries.examPins(), staleTime: 0 });
        const p = fresh.items.find((x) => x.plan_id === exam);
        return p ? p.price * n : undefined;
      },
    });
  });
  return (
    <BillForm ready={ready} onReview={review} error={null} busy={false} onReset={() => setReady(null)}>
      <NativeSelect
        label={t('bills.exam')}
        {...form.getInputProps('exam')}
        data={[
          { value: '', label: '—' },
          ...(pins.data?.items ?? []).map((p) => ({ value: p.plan_id, label: `${p.name} · ${formatNaira(p.price)}` })),
        ]}
        required
      />
      <NumberInput
        label={t('bills.quantity')}
        min={1}
        max={10}
        allowDecimal={false}
        allowNegative={false}
        {...form.getInputProps('quantity')}
        onChange={(v) => form.setFieldValue('quantity', typeof v === 'number' ? v : '')}
        required
      />
      {product?.requiresProfileId && <TextInput label={t('bills.profileId')} {...form.getInputProps('profile_id')} required />}
      <TextInput label={t('buy.phone')} type="tel" {...form.getInputProps('phone')} required />
      {product && q > 0 && <Text size="sm">{formatNaira(product.price * q)}</Text>}
    </BillForm>
  );
}
