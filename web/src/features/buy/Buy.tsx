import { Alert, Anchor, Button, Checkbox, NativeSelect, SegmentedControl, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { get, post } from '../../api/client';
import { AmountInput } from '../../components/AmountInput';
import { errorMessage } from '../../app/errors';
import { formatNaira } from '../../app/format';
import { BUY_SERVICES, type BuyService } from '../../app/router';
import { BettingBuy, CableBuy, ElectricityBuy, ExamBuy } from './Bills';
import { BulkBuy } from './BulkBuy';
import type { PurchaseRequest } from './buy-once';
import { ConfirmPurchase } from './ConfirmPurchase';
import { detectNetwork, NETWORK_NAMES, NETWORKS, normalizePhone, type Network } from '../../app/network';

/** Airtime and data: number, detected network (override for ported numbers), price quoted, PIN, live result. */
export function Buy() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/app/buy' });
  const navigate = useNavigate();
  const service = search.service ?? 'airtime';
  const [bulk, setBulk] = useState(false);
  const hasPin = useQuery({ queryKey: ['hasPin'], queryFn: () => get('/_serverFn/hasTransactionPinBearerSettings') });
  return (
    <Stack maw={520}>
      <Title order={1}>{t('buy.title')}</Title>
      <SegmentedControl
        aria-label={t('buy.title')}
        value={service}
        onChange={(v) => void navigate({ to: '/buy', search: { service: v as BuyService } })}
        data={BUY_SERVICES.map((s) => ({ value: s, label: t(`buy.${s}`) }))}
        fullWidth
        orientation="horizontal"
        style={{ flexWrap: 'wrap' }}
      />
      {hasPin.data && !hasPin.data.hasPin && (
        <Alert color="yellow">
          {t('buy.needsPin')}{' '}
          <Anchor component={Link} to="/settings">
            {t('buy.setPin')}
          </Anchor>
        </Alert>
      )}
      {service === 'airtime' && <Switch label={t('buy.several')} checked={bulk} onChange={(e) => setBulk(e.currentTarget.checked)} />}
      {service === 'cable' && <CableBuy />}
      {service === 'electricity' && <ElectricityBuy />}
      {service === 'betting' && <BettingBuy />}
      {service === 'exam' && <ExamBuy />}
      {(service === 'airtime' || service === 'data') &&
        (service === 'airtime' && bulk ? <BulkBuy /> : <SingleBuy key={service} service={service} />)}
    </Stack>
  );
}

function SingleBuy({ service }: { service: 'airtime' | 'data' }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [phone, setPhone] = useState('');
  const [override, setOverride] = useState<Network | ''>('');
  const [ported, setPorted] = useState(false);
  const [amount, setAmount] = useState<number | ''>('');
  const [planId, setPlanId] = useState('');
  // The price quoted for review (then ConfirmPurchase takes the PIN), or why it could not be quoted.
  const [quoted, setQuoted] = useState<number | null>(null);
  const [quoteError, setQuoteError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const detected = detectNetwork(phone);
  const network: Network | null = override || detected;
  const plans = useQuery({
    queryKey: ['dataPlans', network],
    queryFn: () => get('/_serverFn/listDataPlansBearerVTU', { network: network! }),
    enabled: service === 'data' && network !== null,
    staleTime: 5 * 60_000,
  });
  const plan = plans.data?.items.find((p) => p.plan_id === planId);

  const request = (price: number): PurchaseRequest | null => {
    const local = normalizePhone(phone);
    if (!local || !network) return null;
    const common = { network, phone: local, ...(ported ? { ported: true } : {}) };
    if (service === 'airtime') return typeof amount === 'number' ? { service, ...common, amount } : null;
    return plan ? { service, ...common, plan_id: plan.plan_id, amount: price } : null;
  };

  /** Any change to the purchase sends the buyer back to review it. */
  const edited = () => {
    setQuoted(null);
    setQuoteError(null);
  };

  async function review(e: FormEvent) {
    e.preventDefault();
    setQuoteError(null);
    try {
      // The price the wallet is charged, quoted by the service before the PIN.
      setQuoted(
        service === 'airtime'
          ? (await post('/_serverFn/quotePriceBearerVTU', { service: 'airtime', wholesale: amount as number })).retail
          : (plan?.price ?? 0),
      );
    } catch (err) {
      setQuoteError(errorMessage(err));
    }
  }

  /** PRICE_CHANGED on a data plan: the plan's price now. */
  async function reprice() {
    if (service !== 'data') return undefined;
    const fresh = await qc.fetchQuery({
      queryKey: ['dataPlans', network],
      queryFn: () => get('/_serverFn/listDataPlansBearerVTU', { network: network! }),
      staleTime: 0,
    });
    return fresh.items.find((x) => x.plan_id === planId)?.price;
  }

  const valid =
    normalizePhone(phone) !== null &&
    network !== null &&
    (service === 'airtime' ? typeof amount === 'number' && amount >= 50 : Boolean(plan));
  const ready = quoted === null ? null : request(quoted);
  return (
    <Stack>
      <form onSubmit={review} noValidate>
        <Stack>
          <TextInput
            label={t('buy.phone')}
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            value={phone}
            onChange={(e) => {
              setPhone(e.currentTarget.value);
              edited();
            }}
            description={
              phone.length >= 4 ? (detected ? t('buy.detected', { network: NETWORK_NAMES[detected] }) : t('buy.notDetected')) : undefined
            }
            required
            disabled={busy}
          />
          <NativeSelect
            label={t('buy.network')}
            value={network ?? ''}
            onChange={(e) => {
              setOverride(e.currentTarget.value as Network);
              edited();
            }}
            data={[{ value: '', label: '—' }, ...NETWORKS.map((n) => ({ value: n, label: NETWORK_NAMES[n] }))]}
            disabled={busy}
          />
          {network && detected && network !== detected && (
            <Checkbox label={t('buy.ported')} checked={ported} onChange={(e) => setPorted(e.currentTarget.checked)} />
          )}
          {service === 'airtime' ? (
            <AmountInput
              label={t('buy.amount')}
              min={50}
              value={amount}
              onChange={(v) => {
                setAmount(v);
                edited();
              }}
              disabled={busy}
            />
          ) : (
            <NativeSelect
              label={t('buy.plan')}
              value={planId}
              onChange={(e) => {
                setPlanId(e.currentTarget.value);
                edited();
              }}
              data={[
                { value: '', label: '—' },
                ...(plans.data?.items ?? []).map((p) => ({
                  value: p.plan_id,
                  label: `${p.name} · ${p.validity} · ${formatNaira(p.price)}`,
                })),
              ]}
              disabled={busy || !network}
            />
          )}
          {quoteError && (
            <Alert color="red" role="alert">
              {quoteError}
            </Alert>
          )}
          {!ready && (
            <Button type="submit" disabled={!valid}>
              {t('buy.review')}
            </Button>
          )}
        </Stack>
      </form>
      {ready && quoted !== null && (
        <ConfirmPurchase request={ready} price={quoted} reprice={reprice} onCancel={edited} onBusyChange={setBusy} />
      )}
    </Stack>
  );
}
