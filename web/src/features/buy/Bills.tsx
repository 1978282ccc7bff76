import { Alert, Button, NativeSelect, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { post } from '../../api/client';
import { AmountInput } from '../../components/AmountInput';
import { errorMessage } from '../../app/errors';
import { formatNaira } from '../../app/format';
import type { PurchaseRequest } from './buy-once';
import { ConfirmPurchase } from './ConfirmPurchase';
import { normalizePhone } from '../../app/network';
import { takeDraft } from '../../app/draft';
import { useKeepDraft } from './use-keep-draft';
import { vtuQueries } from '../../api/queries/vtu';

/** A draft's field as text ('' when absent). */
const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

type Ready = {
  request: PurchaseRequest;
  price: number;
  summary: string;
  lines?: [string, string][];
  reprice?: () => Promise<number | undefined>;
};

/** A bill form: its fields, the customer check (name shown before any money moves), then ConfirmPurchase. */
function BillForm({
  children,
  ready,
  onReview,
  error,
  busy,
  canReview,
  onReset,
}: {
  children: ReactNode;
  ready: Ready | null;
  onReview(): void;
  error: unknown;
  busy: boolean;
  canReview: boolean;
  onReset(): void;
}) {
  const { t } = useTranslation();
  return (
    <Stack>
      <form
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          onReview();
        }}
        noValidate
      >
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
            <Button type="submit" loading={busy} disabled={!canReview}>
              {t('buy.review')}
            </Button>
          )}
        </Stack>
      </form>
      {ready && <ConfirmPurchase {...ready} onCancel={onReset} />}
    </Stack>
  );
}

const quote = async (service: 'electricity' | 'betting', wholesale: number) =>
  (await post('/_serverFn/quotePriceBearerVTU', { service, wholesale })).retail;

export function CableBuy() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const providers = useQuery(vtuQueries.cableProviders());
  const [draft] = useState(() => takeDraft('cable') ?? {});
  const [identifier, setIdentifier] = useState(text(draft.identifier));
  const [iuc, setIuc] = useState(text(draft.iuc));
  const [planId, setPlanId] = useState(text(draft.plan_id));
  const [phone, setPhone] = useState(text(draft.phone));
  const [ready, setReady] = useState<Ready | null>(null);
  useKeepDraft('cable', { identifier, iuc, plan_id: planId, phone });
  const plans = useQuery(vtuQueries.cablePlans(identifier));
  const plan = plans.data?.items.find((p) => p.plan_id === planId);
  const verify = useMutation({
    mutationFn: () => post('/_serverFn/verifyCableIUCBearerVTU', { iuc, identifier }),
    onSuccess: (v) =>
      setReady({
        request: { service: 'cable', identifier, iuc, plan_id: plan!.plan_id, amount: plan!.price, phone: normalizePhone(phone)! },
        price: plan!.price,
        summary: t('bills.customer', { name: v.customerName }),
        lines: [
          [t('bills.iuc'), iuc],
          [t('bills.tvPlan'), plan!.name],
          [t('buy.fee'), formatNaira(0)],
          [t('buy.total'), formatNaira(plan!.price)],
        ],
        reprice: async () =>
          (await qc.fetchQuery({ ...vtuQueries.cablePlans(identifier), staleTime: 0 })).items.find((p) => p.plan_id === planId)?.price,
      }),
  });
  return (
    <BillForm
      ready={ready}
      onReview={() => verify.mutate()}
      error={verify.error}
      busy={verify.isPending}
      canReview={Boolean(plan) && /^\d{10,12}$/.test(iuc) && normalizePhone(phone) !== null}
      onReset={() => setReady(null)}
    >
      <NativeSelect
        label={t('bills.provider')}
        value={identifier}
        onChange={(e) => (setIdentifier(e.currentTarget.value), setPlanId(''))}
        data={[{ value: '', label: '—' }, ...(providers.data?.items ?? []).map((p) => ({ value: p.id, label: p.name }))]}
      />
      <TextInput
        label={t('bills.iuc')}
        inputMode="numeric"
        value={iuc}
        onChange={(e) => setIuc(e.currentTarget.value.replace(/\D/g, ''))}
      />
      <NativeSelect
        label={t('bills.tvPlan')}
        value={planId}
        onChange={(e) => setPlanId(e.currentTarget.value)}
        data={[
          { value: '', label: '—' },
          ...(plans.data?.items ?? []).map((p) => ({ value: p.plan_id, label: `${p.name} · ${formatNaira(p.price)}` })),
        ]}
        disabled={!identifier}
      />
      <TextInput label={t('buy.phone')} type="tel" value={phone} onChange={(e) => setPhone(e.currentTarget.value)} />
    </BillForm>
  );
}

export function ElectricityBuy() {
  const { t } = useTranslation();
  const discos = useQuery(vtuQueries.discos());
  const [draft] = useState(() => takeDraft('electricity') ?? {});
  const [plan, setPlan] = useState(text(draft.plan));
  const [type, setType] = useState(text(draft.type) || 'prepaid');
  const [meter, setMeter] = useState(text(draft.meter));
  const [amount, setAmount] = useState<number | ''>(typeof draft.amount === 'number' ? draft.amount : '');
  const [phone, setPhone] = useState(text(draft.phone));
  const [ready, setReady] = useState<Ready | null>(null);
  useKeepDraft('electricity', { plan, meter, amount, phone, ...(meter || plan ? { type } : {}) });
  const disco = discos.data?.items.find((d) => d.id === plan);
  const min = disco?.minAmount ?? 1000;
  const verify = useMutation({
    mutationFn: async () => ({
      v: await post('/_serverFn/verifyMeterBearerVTU', { meter, plan, type }),
      price: await quote('electricity', amount as number),
    }),
    onSuccess: ({ v, price }) =>
      setReady({
        request: { service: 'electricity', plan, meter, type, amount: amount as number, phone: normalizePhone(phone)! },
        price,
        lines: [
          [t('bills.meter'), meter],
          [t('bills.disco'), disco?.name ?? plan],
          [t('buy.amount'), formatNaira(amount as number)],
          [t('buy.fee'), formatNaira(Math.max(0, Math.round((price - (amount as number)) * 100) / 100))],
          [t('buy.total'), formatNaira(price)],
        ],
        summary: `${disco?.name ?? plan} · ${type} · ${t('bills.customer', { name: v.customerName })}${v.address ? ` · ${v.address}` : ''}`,
      }),
  });
  return (
    <BillForm
      ready={ready}
      onReview={() => verify.mutate()}
      error={verify.error}
      busy={verify.isPending}
      canReview={
        Boolean(plan) && /^\d{11,13}$/.test(meter) && typeof amount === 'number' && amount >= min && normalizePhone(phone) !== null
      }
      onReset={() => setReady(null)}
    >
      <NativeSelect
        label={t('bills.disco')}
        value={plan}
        onChange={(e) => setPlan(e.currentTarget.value)}
        data={[{ value: '', label: '—' }, ...(discos.data?.items ?? []).map((d) => ({ value: d.id, label: d.name }))]}
      />
      <NativeSelect
        label={t('bills.meterType')}
        value={type}
        onChange={(e) => setType(e.currentTarget.value)}
        data={(disco?.types ?? ['prepaid', 'postpaid']).map((x) => ({ value: x, label: x }))}
      />
      <TextInput
        label={t('bills.meter')}
        inputMode="numeric"
        value={meter}
        onChange={(e) => setMeter(e.currentTarget.value.replace(/\D/g, ''))}
      />
      <AmountInput label={t('buy.amount')} min={min} value={amount} onChange={setAmount} />
      <TextInput label={t('buy.phone')} type="tel" value={phone} onChange={(e) => setPhone(e.currentTarget.value)} />
    </BillForm>
  );
}

export function BettingBuy() {
  const { t } = useTranslation();
  const companies = useQuery(vtuQueries.betCompanies());
  const [draft] = useState(() => takeDraft('betting') ?? {});
  const [company, setCompany] = useState(text(draft.betting_company));
  const [customerId, setCustomerId] = useState(text(draft.customer_id));
  const [amount, setAmount] = useState<number | ''>(typeof draft.amount === 'number' ? draft.amount : '');
  const [ready, setReady] = useState<Ready | null>(null);
  useKeepDraft('betting', { betting_company: company, customer_id: customerId, amount });
  const verify = useMutation({
    mutationFn: async () => ({
      v: await post('/_serverFn/verifyBetAccountBearerVTU', { betting_company: company, customer_id: customerId }),
      price: await quote('betting', amount as number),
    }),
    onSuccess: ({ v, price }) =>
      setReady({
        request: { service: 'betting', betting_company: company, customer_id: customerId, amount: amount as number },
        price,
        summary: t('bills.customer', { name: v.customerName }),
      }),
  });
  return (
    <BillForm
      ready={ready}
      onReview={() => verify.mutate()}
      error={verify.error}
      busy={verify.isPending}
      canReview={Boolean(company) && customerId.length > 0 && typeof amount === 'number' && amount >= 100}
      onReset={() => setReady(null)}
    >
      <NativeSelect
        label={t('bills.company')}
        value={company}
        onChange={(e) => setCompany(e.currentTarget.value)}
        data={[{ value: '', label: '—' }, ...(companies.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }))]}
      />
      <TextInput label={t('bills.customerId')} value={customerId} onChange={(e) => setCustomerId(e.currentTarget.value.trim())} />
      <AmountInput label={t('buy.amount')} min={100} value={amount} onChange={setAmount} />
    </BillForm>
  );
}

export function ExamBuy() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const pins = useQuery(vtuQueries.examPins());
  const [draft] = useState(() => takeDraft('exam') ?? {});
  const [exam, setExam] = useState(text(draft.exam));
  const [quantity, setQuantity] = useState<number | ''>(typeof draft.quantity === 'number' ? draft.quantity : 1);
  const [phone, setPhone] = useState(text(draft.phone));
  const [profileId, setProfileId] = useState(text(draft.profile_id));
  const [ready, setReady] = useState<Ready | null>(null);
  useKeepDraft('exam', { exam, phone, profile_id: profileId, ...(exam ? { quantity } : {}) });
  const product = pins.data?.items.find((p) => p.plan_id === exam);
  const q = typeof quantity === 'number' ? quantity : 0;
  function review() {
    const price = product!.price * q;
    setReady({
      request: {
        service: 'exam',
        exam,
        quantity: q,
        phone: normalizePhone(phone)!,
        amount: price,
        ...(product?.requiresProfileId ? { profile_id: profileId } : {}),
      },
      price,
      summary: `${q} × ${product!.name}`,
      reprice: async () => {
        const fresh = await qc.fetchQuery({ ...vtuQueries.examPins(), staleTime: 0 });
        const p = fresh.items.find((x) => x.plan_id === exam);
        return p ? p.price * q : undefined;
      },
    });
  }
  return (
    <BillForm
      ready={ready}
      onReview={review}
      error={null}
      busy={false}
      canReview={Boolean(product) && q >= 1 && normalizePhone(phone) !== null && (!product?.requiresProfileId || profileId.length > 0)}
      onReset={() => setReady(null)}
    >
      <NativeSelect
        label={t('bills.exam')}
        value={exam}
        onChange={(e) => setExam(e.currentTarget.value)}
        data={[
          { value: '', label: '—' },
          ...(pins.data?.items ?? []).map((p) => ({ value: p.plan_id, label: `${p.name} · ${formatNaira(p.price)}` })),
        ]}
      />
      <NumberInput
        label={t('bills.quantity')}
        min={1}
        max={10}
        allowDecimal={false}
        allowNegative={false}
        value={quantity}
        onChange={(v) => setQuantity(typeof v === 'number' ? v : '')}
      />
      {product?.requiresProfileId && (
        <TextInput label={t('bills.profileId')} value={profileId} onChange={(e) => setProfileId(e.currentTarget.value.trim())} />
      )}
      <TextInput label={t('buy.phone')} type="tel" value={phone} onChange={(e) => setPhone(e.currentTarget.value)} />
      {product && q > 0 && <Text size="sm">{formatNaira(product.price * q)}</Text>}
    </BillForm>
  );
}
