import { Alert, Anchor, Button, Checkbox, NativeSelect, SegmentedControl, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useReducer, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, get, newIdempotencyKey, post } from '../../api/client';
import { AmountInput } from '../../app/AmountInput';
import { errorMessage } from '../../app/errors';
import { formatNaira } from '../../app/format';
import { BUY_SERVICES, type BuyService } from '../../app/router';
import { BettingBuy, CableBuy, ElectricityBuy, ExamBuy } from './Bills';
import { BulkBuy } from './BulkBuy';
import { buyOnce, type PurchaseRequest } from './buy-once';
import { detectNetwork, NETWORK_NAMES, NETWORKS, normalizePhone, type Network } from './network';
import { PinPad } from './PinPad';
import { purchaseReducer } from './purchase-state';

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
      {(service === 'airtime' || service === 'data') && (service === 'airtime' && bulk ? <BulkBuy /> : <SingleBuy key={service} service={service} />)}
    </Stack>
  );
}

function SingleBuy({ service }: { service: 'airtime' | 'data' }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [phone, setPhone] = useState('');
  const [override, setOverride] = useState<Network | ''>('');
  const [ported, setPorted] = useState(false);
  const [amount, setAmount] = useState<number | ''>('');
  const [planId, setPlanId] = useState('');
  const [pin, setPin] = useState('');
  const [state, dispatch] = useReducer(purchaseReducer, { phase: 'edit' });
  const key = useRef(newIdempotencyKey());

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

  async function review(e: FormEvent) {
    e.preventDefault();
    key.current = newIdempotencyKey();
    try {
      // The price the wallet is charged, quoted by the service before the PIN.
      const price =
        service === 'airtime' ? (await post('/_serverFn/quotePriceBearerVTU', { service: 'airtime', wholesale: amount as number })).retail : (plan?.price ?? 0);
      dispatch({ type: 'review', price });
    } catch (err) {
      dispatch({ type: 'review', price: 0 });
      dispatch({ type: 'refused', code: err instanceof ApiError ? err.code : 'INTERNAL', message: errorMessage(err) });
    }
  }

  async function confirm(p: string) {
    const price = 'price' in state ? state.price : 0;
    const req = request(price);
    if (!req) return;
    dispatch({ type: 'submit' });
    try {
      const tx = await buyOnce(req, p, key.current, () => dispatch({ type: 'connectionLost' }));
      dispatch({ type: 'answered', tx });
      void qc.invalidateQueries({ queryKey: ['wallet'] });
      void navigate({ to: '/buy/result/$id', params: { id: tx.id } });
    } catch (err) {
      // A refusal is stored under its key: the next try needs a new one.
      key.current = newIdempotencyKey();
      setPin('');
      const code = err instanceof ApiError ? err.code : 'INTERNAL';
      let newPrice: number | undefined;
      if (code === 'PRICE_CHANGED' && service === 'data') {
        const fresh = await qc.fetchQuery({ queryKey: ['dataPlans', network], queryFn: () => get('/_serverFn/listDataPlansBearerVTU', { network: network! }), staleTime: 0 });
        newPrice = fresh.items.find((x) => x.plan_id === planId)?.price;
      }
      dispatch({ type: 'refused', code, message: errorMessage(err), newPrice });
    }
  }

  const busy = state.phase === 'submitting' || state.phase === 'checking';
  const valid = normalizePhone(phone) !== null && network !== null && (service === 'airtime' ? typeof amount === 'number' && amount >= 50 : Boolean(plan));
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
              dispatch({ type: 'edit' });
            }}
            description={phone.length >= 4 ? (detected ? t('buy.detected', { network: NETWORK_NAMES[detected] }) : t('buy.notDetected')) : undefined}
            required
            disabled={busy}
          />
          <NativeSelect
            label={t('buy.network')}
            value={network ?? ''}
            onChange={(e) => {
              setOverride(e.currentTarget.value as Network);
              dispatch({ type: 'edit' });
            }}
            data={[{ value: '', label: '—' }, ...NETWORKS.map((n) => ({ value: n, label: NETWORK_NAMES[n] }))]}
            disabled={busy}
          />
          {network && detected && network !== detected && <Checkbox label={t('buy.ported')} checked={ported} onChange={(e) => setPorted(e.currentTarget.checked)} />}
          {service === 'airtime' ? (
            <AmountInput
              label={t('buy.amount')}
              min={50}
              value={amount}
              onChange={(v) => {
                setAmount(v);
                dispatch({ type: 'edit' });
              }}
              disabled={busy}
            />
          ) : (
            <NativeSelect
              label={t('buy.plan')}
              value={planId}
              onChange={(e) => {
                setPlanId(e.currentTarget.value);
                dispatch({ type: 'edit' });
              }}
              data={[{ value: '', label: '—' }, ...(plans.data?.items ?? []).map((p) => ({ value: p.plan_id, label: `${p.name} · ${p.validity} · ${formatNaira(p.price)}` }))]}
              disabled={busy || !network}
            />
          )}
          {state.phase === 'edit' && (
            <Button type="submit" disabled={!valid}>
              {t('buy.review')}
            </Button>
          )}
        </Stack>
      </form>
      {state.phase !== 'edit' && state.phase !== 'done' && (
        <Stack component="section" aria-label={t('buy.confirmTitle')}>
          <Title order={2} size="h4">
            {t('buy.confirmTitle')}
          </Title>
          <Text fw={600} data-testid="price">
            {t('buy.price', { amount: formatNaira(state.price) })}
          </Text>
          {state.phase === 'priceChanged' && <Alert color="yellow" role="alert">{t('buy.priceChanged', { amount: formatNaira(state.price) })}</Alert>}
          {state.phase === 'refused' && (
            <Alert color="red" role="alert">
              {state.message}{' '}
              {state.code === 'KYC_TIER_REQUIRED' && (
                <Anchor component={Link} to="/kyc">
                  {t('buy.verify')}
                </Anchor>
              )}
            </Alert>
          )}
          {state.phase === 'checking' && (
            <Alert color="blue" role="status" title={t('result.checking')}>
              {t('result.checkingBody')}
            </Alert>
          )}
          <PinPad value={pin} onChange={setPin} onConfirm={(p) => void confirm(p)} busy={busy} />
          <Button variant="subtle" onClick={() => dispatch({ type: 'edit' })} disabled={busy}>
            {t('app.cancel')}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
