import { Alert, Button, Checkbox, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, post } from '../../api/client';
import { beneficiaryQueries } from '../../api/queries/beneficiaries';
import { vtuQueries } from '../../api/queries/vtu';
import { useAuth } from '../../app/auth';
import { takeDraft } from '../../app/draft';
import { errorMessage, isCode } from '../../app/errors';
import { formatNaira } from '../../app/format';
import { detectNetwork, NETWORK_NAMES, NETWORKS, normalizePhone, type Network } from '../../app/network';
import { AmountInput } from '../../components/AmountInput';
import type { PurchaseRequest } from './buy-once';
import { ConfirmPurchase } from './ConfirmPurchase';
import { groupPlans } from './plan-groups';
import { SavedNumbers, SaveNumber } from './SavedNumbers';
import { useKeepDraft } from './use-keep-draft';

/** The amounts people pick most, one tap each. */
const AMOUNT_CHIPS = [100, 200, 500, 1000, 2000, 5000];
const AIRTIME_MIN = 50;

type Field = 'phone' | 'network' | 'amount' | 'plan' | 'label';
interface Review {
  request: PurchaseRequest;
  total: number;
  lines: [string, string][];
}

/** Airtime and data: number, detected network (override for ported numbers), amount or plan, the review, the PIN. */
export function PhoneBuy({ service }: { service: 'airtime' | 'data' }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const auth = useAuth();
  // A form the session ended in, or the purchase "Buy again" repeats.
  const [draft] = useState(() => takeDraft(service) ?? {});
  const [phone, setPhone] = useState(String(draft.phone ?? ''));
  const [override, setOverride] = useState<Network | ''>(NETWORKS.includes(draft.network as Network) ? (draft.network as Network) : '');
  const [ported, setPorted] = useState(draft.ported === true);
  const [amount, setAmount] = useState<number | ''>(typeof draft.amount === 'number' ? draft.amount : '');
  const [planId, setPlanId] = useState(String(draft.plan_id ?? ''));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [review, setReview] = useState<Review | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [quoting, setQuoting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [save, setSave] = useState(false);
  const [saveLabel, setSaveLabel] = useState('');
  useKeepDraft(service, { phone, network: override, ported, amount, plan_id: planId });

  const detected = detectNetwork(phone);
  const network: Network | null = override || detected;
  const plans = useQuery({ ...vtuQueries.dataPlans(network), enabled: service === 'data' && network !== null });
  const plan = plans.data?.items.find((p) => p.plan_id === planId);

  /** Any change sends the buyer back to review the purchase; the changed field's error goes. */
  const edited = (field: Field) => {
    setReview(null);
    setFailure(null);
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  function check(): Partial<Record<Field, string>> {
    const e: Partial<Record<Field, string>> = {};
    if (!normalizePhone(phone)) e.phone = t('buy.phoneInvalid');
    if (!network) e.network = t('buy.networkRequired');
    if (service === 'airtime' && (typeof amount !== 'number' || amount < AIRTIME_MIN))
      e.amount = t('buy.amountMin', { amount: formatNaira(AIRTIME_MIN) });
    if (service === 'data' && !plan) e.plan = t('buy.planRequired');
    if (save && saveLabel.trim() === '') e.label = t('buy.saveAsRequired');
    return e;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = check();
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    const local = normalizePhone(phone)!;
    const common = { network: network!, phone: local, ...(ported ? { ported: true } : {}) };
    const who: [string, string][] = [
      [t('buy.phone'), local],
      [t('buy.network'), NETWORK_NAMES[network!]],
    ];
    setQuoting(true);
    try {
      if (save) {
        await post('/_serverFn/saveBeneficiaryBearerBeneficiaries', {
          kind: 'phone',
          label: saveLabel.trim(),
          recipient: local,
          provider: network!,
        });
        setSave(false);
        void qc.invalidateQueries({ queryKey: beneficiaryQueries.all() });
      }
      // What the wallet is charged, quoted by the service before the PIN: the amount bought, the fee and the total.
      const q = await post(
        '/_serverFn/quotePurchaseBearerVTU',
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
        lines: [
          ...who,
          service === 'data' ? [t('buy.planLabel'), `${plan!.name} · ${plan!.validity}`] : [t('buy.amount'), formatNaira(q.amount)],
          [t('buy.fee'), formatNaira(q.fee)],
          [t('buy.total'), formatNaira(q.total)],
        ],
      });
    } catch (err) {
      if (isCode(err, 'SESSION_SUPERSEDED')) return auth.superseded();
      // A field the service refused is named under that field, in the app's words.
      if (err instanceof ApiError && err.issues.some((i) => /amount|wholesale/.test(i.path)))
        setErrors({ amount: t('buy.amountMin', { amount: formatNaira(AIRTIME_MIN) }) });
      else if (err instanceof ApiError && err.issues.some((i) => /label|recipient/.test(i.path))) setErrors({ label: errorMessage(err) });
      else setFailure(err);
    } finally {
      setQuoting(false);
    }
  }

  /** PRICE_CHANGED on a data plan: the plan's price now. */
  async function reprice() {
    if (service !== 'data') return undefined;
    const fresh = await qc.fetchQuery({ ...vtuQueries.dataPlans(network), staleTime: 0 });
    return fresh.items.find((x) => x.plan_id === planId)?.price;
  }

  return (
    <Stack>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <SavedNumbers
            disabled={busy}
            onPick={(number, provider) => {
              setPhone(number);
              if (NETWORKS.includes(provider as Network)) setOverride(provider as Network);
              edited('phone');
            }}
          />
          <TextInput
            label={t('buy.phone')}
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            value={phone}
            onChange={(e) => {
              setPhone(e.currentTarget.value);
              edited('phone');
            }}
            description={
              phone.length >= 4 ? (detected ? t('buy.detected', { network: NETWORK_NAMES[detected] }) : t('buy.notDetected')) : undefined
            }
            error={errors.phone}
            required
            disabled={busy}
          />
          <NativeSelect
            label={t('buy.network')}
            value={network ?? ''}
            onChange={(e) => {
              setOverride(e.currentTarget.value as Network);
              edited('network');
            }}
            data={[{ value: '', label: '—' }, ...NETWORKS.map((n) => ({ value: n, label: NETWORK_NAMES[n] }))]}
            error={errors.network}
            disabled={busy}
          />
          {network && detected && network !== detected && (
            <Checkbox label={t('buy.ported')} checked={ported} onChange={(e) => setPorted(e.currentTarget.checked)} />
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
                    onClick={() => {
                      setAmount(a);
                      edited('amount');
                    }}
                    disabled={busy}
                  >
                    {formatNaira(a).replace(/\.00$/, '')}
                  </Button>
                ))}
              </Group>
              <AmountInput
                label={t('buy.amount')}
                min={AIRTIME_MIN}
                value={amount}
                onChange={(v) => {
                  setAmount(v);
                  edited('amount');
                }}
                error={errors.amount}
                disabled={busy}
              />
            </>
          ) : (
            <NativeSelect
              label={t('buy.plan')}
              value={planId}
              onChange={(e) => {
                setPlanId(e.currentTarget.value);
                edited('plan');
              }}
              data={[
                { value: '', label: '—' },
                ...groupPlans(plans.data?.items ?? []).map((g) => ({
                  group: t(`buy.validity_${g.group}`),
                  items: g.items.map((p) => ({ value: p.plan_id, label: `${p.name} · ${p.validity} · ${formatNaira(p.price)}` })),
                })),
              ]}
              error={errors.plan}
              disabled={busy || !network}
            />
          )}
          <SaveNumber save={save} label={saveLabel} onSave={setSave} onLabel={setSaveLabel} error={errors.label} />
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
          reprice={reprice}
          onCancel={() => setReview(null)}
          onBusyChange={setBusy}
        />
      )}
    </Stack>
  );
}
