import { Alert, Button, Checkbox, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { beneficiaryQueries } from '../../api/queries/beneficiaries';
import { vtuQueries } from '../../api/queries/vtu';
import { AMOUNT_BOUNDS, airtimeSchema, dataSchema, saveNumberSchema } from '../../api/buy-schemas';
import { useAuth } from '../../app/auth';
import { peekDraft, takeDraft } from '../../app/draft';
import { errorMessage, isCode } from '../../app/errors';
import { formatNaira } from '../../app/format';
import { detectNetwork, NETWORK_NAMES, NETWORKS, normalizePhone, type Network } from '../../app/network';
import { AmountInput } from '../../components/AmountInput';
import { amountProps, showServerIssues, useSchemaForm, type FieldHints } from '../../components/form';
import type { PurchaseRequest } from './buy-once';
import { ConfirmPurchase } from './ConfirmPurchase';
import type { PricedAt } from './price-level';
import { groupPlans } from './plan-groups';
import { planName } from '../../app/catalogue-labels';
import { SavedNumbers, SaveNumber } from './SavedNumbers';
import { useKeepDraft } from './use-keep-draft';
import * as api from '../../api/calls';

/** The amounts people pick most, one tap each. */
const AMOUNT_CHIPS = [100, 200, 500, 1000, 2000, 5000];
const [AIRTIME_MIN, AIRTIME_MAX] = AMOUNT_BOUNDS.airtime;
const HINTS: FieldHints = {
  phone: 'buy.phoneInvalid',
  network: 'buy.networkRequired',
  plan_id: 'buy.planRequired',
  label: 'buy.saveAsRequired',
  // An empty amount is asked for with its floor.
  amount: (issue) => (issue.code === 'invalid_type' ? i18next.t('form.atLeast', { minimum: formatNaira(AIRTIME_MIN) }) : undefined),
};

/**
 * The form's rules: the purchase operation's (number, network, amount or plan) and the beneficiary's label when the
 * number is to be saved. The network checked is the one chosen, else the one the number's prefix names.
 */
const rules = (service: 'airtime' | 'data') =>
  z.preprocess(
    (v) => {
      const f = v as { network: string; phone: string };
      return { ...f, network: f.network || detectNetwork(f.phone) || '' };
    },
    z.intersection(service === 'airtime' ? airtimeSchema : dataSchema, saveNumberSchema),
  );

interface Review {
  request: PurchaseRequest;
  total: number;
  lines: [string, string][];
  /** The price level the quote named (issue 45). */
  level: PricedAt;
  /** The fields it was made for: any change sends the buyer back to review the purchase. */
  fields: string;
}

/** Airtime and data: number, detected network (override for ported numbers), amount or plan, the review, the PIN. */
export function PhoneBuy({ service }: { service: 'airtime' | 'data' }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const auth = useAuth();
  // Back from funding the wallet for this purchase (app/draft.ts keepForFunding), or filled in for the customer
  // (onboarding's airtime amounts): it opens at its review.
  const [openAtReview] = useState(() => {
    const d = peekDraft();
    return d?.service === service && (d.funding !== undefined || d.review === true);
  });
  // A form the session ended in, or the purchase "Buy again" repeats.
  const [draft] = useState(() => takeDraft(service) ?? {});
  const [schema] = useState(() => rules(service));
  const form = useSchemaForm(
    schema,
    {
      phone: String(draft.phone ?? ''),
      network: NETWORKS.includes(draft.network as Network) ? (draft.network as Network | '') : '',
      ported: draft.ported === true,
      amount: typeof draft.amount === 'number' ? draft.amount : ('' as number | ''),
      plan_id: String(draft.plan_id ?? ''),
      save: false,
      label: '',
    },
    HINTS,
  );
  const { phone, network: override, ported, amount, plan_id: planId, save } = form.getValues();
  const fields = JSON.stringify({ phone, override, ported, amount, planId });
  const [reviewed, setReview] = useState<Review | null>(null);
  const review = reviewed?.fields === fields ? reviewed : null;
  const [failed, setFailure] = useState<{ err: unknown; fields: string } | null>(null);
  const failure = failed?.fields === fields ? failed.err : null;
  const [quoting, setQuoting] = useState(false);
  const [busy, setBusy] = useState(false);
  useKeepDraft(service, { phone, network: override, ported, amount, plan_id: planId });

  const detected = detectNetwork(phone);
  const network: Network | null = override || detected;
  const plans = useQuery({ ...vtuQueries.dataPlans(network), enabled: service === 'data' && network !== null });
  const plan = plans.data?.items.find((p) => p.plan_id === planId);

  /** A field set by a tap (a saved number, an amount chip): its message goes. */
  const set = (field: 'phone' | 'network' | 'amount', value: string | number) => {
    form.setFieldValue(field, value as never);
    form.clearFieldError(field);
  };

  // Nothing filled in yet: the customer's own verified number, which most buy for (a saved number or typing changes it),
  // unless the field took the focus first (then it would be appended to what the customer types).
  const own = useQuery(beneficiaryQueries.list('phone')).data?.items.find((b) => b.ownNumber)?.recipient;
  const prefilled = useRef(draft.phone !== undefined);
  const phoneProps = form.getInputProps('phone');
  useEffect(() => {
    if (!own || prefilled.current) return;
    prefilled.current = true;
    if (form.getValues().phone === '') form.setFieldValue('phone', own);
  }, [own, form]);

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const checked = schema.safeParse(values);
    if (!checked.success) return;
    if (service === 'data' && !plan) return form.setFieldError('plan_id', t('buy.planRequired'));
    const local = normalizePhone(phone)!;
    const common = { network: network!, phone: local, ...(ported ? { ported: true } : {}) };
    const who: [string, string][] = [
      [t('buy.phone'), local],
      [t('buy.network'), NETWORK_NAMES[network!]],
    ];
    setQuoting(true);
    try {
      if (values.save) {
        await api.saveBeneficiary({
          kind: 'phone',
          label: values.label.trim(),
          recipient: local,
          provider: network!,
        });
        form.setFieldValue('save', false);
        void qc.invalidateQueries({ queryKey: beneficiaryQueries.all() });
      }
      // What the wallet is charged, quoted by the service before the PIN: the amount bought, the fee and the total.
      const q = await api.quotePurchase(
        service === 'data'
          ? { service, network: network!, plan_id: plan!.plan_id }
          : { service, network: network!, amount: amount as number },
      );
      setReview({
        request:
          service === 'data'
            ? { service, ...common, plan_id: plan!.plan_id, amount: q.total }
            : { service, ...common, amount: amount as number },
        total: q.total,
        level: q.level,
        fields,
        lines: [
          ...who,
          service === 'data'
            ? [t('buy.planLabel'), `${planName(plan!.name)} · ${plan!.validity}`]
            : [t('buy.amount'), formatNaira(q.amount)],
          [t('buy.fee'), formatNaira(q.fee)],
          [t('buy.total'), formatNaira(q.total)],
        ],
      });
    } catch (err) {
      if (isCode(err, 'SESSION_SUPERSEDED')) return auth.superseded();
      // A field the service refused is named under that field, in the app's words.
      if (!showServerIssues(form, err, HINTS)) setFailure({ err, fields });
    } finally {
      setQuoting(false);
    }
  });

  const reviewNow = useRef(openAtReview);
  useEffect(() => {
    if (!reviewNow.current || (service === 'data' && !plan)) return;
    reviewNow.current = false;
    submit();
  }, [submit, service, plan]);

  /** PRICE_CHANGED on a data plan: the plan's price now. */
  async function reprice() {
    if (service !== 'data') return undefined;
    const fresh = await qc.fetchQuery({ ...vtuQueries.dataPlans(network), staleTime: 0 });
    return fresh.items.find((x) => x.plan_id === planId)?.price;
  }

  return (
    <Stack>
      <form onSubmit={submit} noValidate>
        <Stack>
          <SavedNumbers
            disabled={busy}
            onPick={(number, provider) => {
              set('phone', number);
              if (provider && NETWORKS.includes(provider as Network)) set('network', provider);
            }}
          />
          <TextInput
            label={t('buy.phone')}
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            {...phoneProps}
            onFocus={(e) => {
              // The customer is about to type: their own number must not arrive under their fingers.
              prefilled.current = true;
              phoneProps.onFocus?.(e);
            }}
            description={
              phone.length >= 4 ? (detected ? t('buy.detected', { network: NETWORK_NAMES[detected] }) : t('buy.notDetected')) : undefined
            }
            required
            disabled={busy}
          />
          <NativeSelect
            label={t('buy.network')}
            {...form.getInputProps('network')}
            value={network ?? ''}
            data={[{ value: '', label: '—' }, ...NETWORKS.map((n) => ({ value: n, label: NETWORK_NAMES[n] }))]}
            disabled={busy}
          />
          {network && detected && network !== detected && (
            <Checkbox label={t('buy.ported')} {...form.getInputProps('ported', { type: 'checkbox' })} />
          )}
          {service === 'airtime' ? (
            <>
              <Group gap="xs" role="group" aria-label={t('buy.quickAmounts')}>
                {AMOUNT_CHIPS.map((a) => (
                  <Button
                    key={a}
                    size="compact-sm"
                    variant={amount === a ? 'filled' : 'light'}
                    aria-pressed={amount === a}
                    onClick={() => set('amount', a)}
                    disabled={busy}
                  >
                    {formatNaira(a).replace(/\.00$/, '')}
                  </Button>
                ))}
              </Group>
              <AmountInput label={t('buy.amount')} min={AIRTIME_MIN} max={AIRTIME_MAX} {...amountProps(form, 'amount')} disabled={busy} />
            </>
          ) : (
            <NativeSelect
              label={t('buy.plan')}
              {...form.getInputProps('plan_id')}
              data={[
                { value: '', label: '—' },
                ...groupPlans(plans.data?.items ?? []).map((g) => ({
                  group: t(`buy.validity_${g.group}`),
                  items: g.items.map((p) => ({ value: p.plan_id, label: `${planName(p.name)} · ${p.validity} · ${formatNaira(p.price)}` })),
                })),
              ]}
              disabled={busy || !network}
              required
            />
          )}
          <SaveNumber
            save={save}
            label={form.getValues().label}
            onSave={(v) => form.setFieldValue('save', v)}
            onLabel={(v) => form.setFieldValue('label', v)}
            error={form.errors.label as string | undefined}
          />
          {failure ? (
            <Alert color="red" role="alert">
              {errorMessage(failure)}
            </Alert>
          ) : null}
          {!review && (
            <Button type="submit" loading={quoting}>
              {t('buy.review')}
            </Button>
          )}
        </Stack>
      </form>
      {review && (
        <ConfirmPurchase
          request={review.request}
          price={review.total}
          lines={review.lines}
          level={review.level}
          reprice={reprice}
          onCancel={() => setReview(null)}
          onBusyChange={setBusy}
        />
      )}
    </Stack>
  );
}
