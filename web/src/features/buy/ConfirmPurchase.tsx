import { Alert, Anchor, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, newIdempotencyKey } from '../../api/client';
import { TOPUP_BOUNDS } from '../../api/buy-schemas';
import { walletQueries } from '../../api/queries/wallet';
import { useAuth } from '../../app/auth';
import { buyServiceOr } from '../../app/buy-services';
import { useKindLabel } from '../../app/kind-tabs';
import { keepForFunding } from '../../app/draft';
import { refusalMessage } from '../../app/pin-errors';
import { LinkButton } from '../../components/LinkButton';
import { formatNaira } from '../../app/format';
import { useOnline } from '../../app/online';
import { buyOnce, requestOf, type Proof, type PurchaseRequest } from './buy-once';
import { settingsQueries } from '../../api/queries/settings';
import { paymentAssertion } from '../../api/passkeys';
import { usePlatformPasskey } from '../../components/usePlatformPasskey';
import { PinPad } from '../../components/PinPad';
import { purchaseReducer } from './purchase-state';
import { OverDailyLimit } from './DailyLimit';
import { growthQueries } from '../../api/queries/growth';
import { levelLines, type PricedAt } from './price-level';
import * as api from '../../api/calls';

/** Services bought by the face value the buyer chose; the others (plans, PINs) send the price they confirmed. */
const FACE_VALUE: ReadonlySet<PurchaseRequest['service']> = new Set(['airtime', 'electricity', 'betting']);

/**
 * The last step of every purchase: the price the wallet is charged, the PIN pad, and the purchase sent once
 * under its key (re-sent with the same key when the answer is lost). A refusal shows its message; a new price
 * (PRICE_CHANGED) is asked for again through `reprice`. On an answer it opens the live result screen.
 * `onBusyChange` lets the form lock its fields while a purchase is on its way.
 */
export function ConfirmPurchase(p: {
  request: PurchaseRequest;
  price: number;
  summary?: string;
  /** What is being bought, named before the PIN: number, network, plan, fee, total. */
  lines?: [string, string][];
  /**
   * The price level the quote named (issue 45); a review priced from a list rather than a quote reads the customer's
   * level. Other than the default level, it is named under the lines.
   */
  level?: PricedAt;
  reprice?: () => Promise<number | undefined>;
  onCancel(): void;
  onBusyChange?: (busy: boolean) => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [pin, setPin] = useState('');
  // The pad comes into view with the focus after Review, and again after each refusal (cleared for another try).
  const [tries, setTries] = useState(1);
  const [state, dispatch] = useReducer(purchaseReducer, { phase: 'confirm', price: p.price });
  const key = useRef(newIdempotencyKey());
  const price = 'price' in state ? state.price : p.price;
  const auth = useAuth();
  // Offline says so in words (issue 43): the purchase under way is kept and checked again, never sent twice.
  const online = useOnline();
  // The balance is checked before the PIN: a purchase the wallet cannot pay shows the way to fund it instead.
  const wallet = useQuery(walletQueries.state());
  const short = wallet.data !== undefined && wallet.data.balance < price;
  // Off to fund the wallet: the form is kept, the fund screen offers what is missing, and its result leads back here.
  const fund = () => keepForFunding(buyServiceOr(p.request.service), price - (wallet.data?.balance ?? 0));
  // What is missing, paid at the processor's checkout in one tap (its least top-up at least); the fund screen is the
  // other way (another amount, a bank transfer), and says why when the checkout cannot start.
  const missing = Math.min(Math.max(Math.ceil(price - (wallet.data?.balance ?? 0)), TOPUP_BOUNDS[0]), TOPUP_BOUNDS[1]);
  const kindLabel = useKindLabel();
  const fundKey = useRef(newIdempotencyKey());
  const checkout = useMutation({
    mutationFn: () =>
      api.startProcessorTopup(
        { amount: missing, email: auth.user!.email, callbackUrl: `${window.location.origin}/fund/return` },
        { idempotencyKey: fundKey.current },
      ),
    onSuccess: (r) => window.location.assign(r.authorizationUrl),
    onError: () => void navigate({ to: '/fund' }),
  });
  // So is the KYC tier's daily limit: a price above what is left today says so, and how to raise it, instead of the
  // pad. The pad waits for the first answer (not when it fails or the app is offline: the service still decides).
  const limits = useQuery(walletQueries.limits());
  const overLimit = limits.data !== undefined && price > limits.data.leftToday;
  const limitsComing = limits.data === undefined && limits.fetchStatus === 'fetching';
  // Issue 43: where the customer chose it, fingerprint or face confirms instead of the PIN (the pad stays below).
  const here = usePlatformPasskey();
  const passkeys = useQuery({ ...settingsQueries.passkeys(), enabled: here });
  const withPasskey = here && Boolean(passkeys.data?.payments && passkeys.data.items.length);
  const mine = useQuery({ ...growthQueries.level(), enabled: p.level === undefined });
  const lines = [...(p.lines ?? []), ...levelLines(p.level ?? mine.data?.level, t)];

  async function confirm(value: string | 'passkey') {
    dispatch({ type: 'submit' });
    const request = { ...p.request, amount: FACE_VALUE.has(p.request.service) ? p.request.amount : price };
    let proof: Proof = value;
    if (value === 'passkey') {
      try {
        const { path, input } = requestOf(request);
        proof = { passkeyAssertion: await paymentAssertion(path, input) };
      } catch (err) {
        setTries((n) => n + 1);
        const message = err instanceof ApiError ? refusalMessage(err) : t('passkeys.payFailed');
        return dispatch({ type: 'refused', code: err instanceof ApiError ? err.code : 'PASSKEY_INVALID', message });
      }
    }
    try {
      const tx = await buyOnce(request, proof, key.current, () => dispatch({ type: 'connectionLost' }));
      dispatch({ type: 'answered', tx });
      void qc.invalidateQueries({ queryKey: walletQueries.all() });
      void navigate({ to: '/buy/result/$id', params: { id: tx.id } });
    } catch (err) {
      key.current = newIdempotencyKey();
      setPin('');
      setTries((n) => n + 1);
      const code = err instanceof ApiError ? err.code : 'INTERNAL';
      // Another device took the session over: the form is kept for after signing in again (see draft.ts).
      if (code === 'SESSION_SUPERSEDED') return auth.superseded();
      if (code === 'INSUFFICIENT_FUNDS' || code === 'LIMIT_EXCEEDED') void qc.invalidateQueries({ queryKey: walletQueries.all() });
      dispatch({
        type: 'refused',
        code,
        message: refusalMessage(err),
        newPrice: code === 'PRICE_CHANGED' ? await p.reprice?.() : undefined,
      });
    }
  }

  const busy = state.phase === 'submitting' || state.phase === 'checking';
  const { onBusyChange } = p;
  useEffect(() => onBusyChange?.(busy), [busy, onBusyChange]);
  return (
    <Stack component="section" aria-label={t('buy.confirmTitle')}>
      <Title order={2} size="h4">
        {t('buy.confirmTitle')}
      </Title>
      {p.summary && <Text>{p.summary}</Text>}
      {lines.length > 0 && (
        <Table layout="fixed" className="receipt-table" data-testid="confirm-lines">
          <Table.Tbody>
            {lines.map(([k, v]) => (
              <Table.Tr key={k}>
                <Table.Th scope="row">{k}</Table.Th>
                <Table.Td>{v}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Text fw={600} data-testid="price">
        {t('buy.price', { amount: formatNaira(price) })}
      </Text>
      {state.phase === 'priceChanged' && (
        <Alert color="yellow" role="alert">
          {t('buy.priceChanged', { amount: formatNaira(state.price) })}
        </Alert>
      )}
      {state.phase === 'refused' && (
        <Alert color="red" role="alert">
          {state.message}{' '}
          {(state.code === 'KYC_TIER_REQUIRED' || state.code === 'LIMIT_EXCEEDED') && (
            <Anchor component={Link} to="/kyc">
              {t('buy.verify')}
            </Anchor>
          )}
          {state.code === 'INSUFFICIENT_FUNDS' && (
            <Anchor component={Link} to="/fund" onClick={fund}>
              {t('buy.fundFirst')}
            </Anchor>
          )}
        </Alert>
      )}
      {!online && (
        <Alert color="yellow" role="alert" title={t('buy.offlineTitle')} data-testid="offline-purchase">
          {t('buy.offlineBody')}
        </Alert>
      )}
      {state.phase === 'checking' && (
        <Alert color="blue" role="status" title={t('result.checking')}>
          {t('result.checkingBody')}
        </Alert>
      )}
      {overLimit && !busy ? (
        <OverDailyLimit limits={limits.data!} price={price} />
      ) : short && !busy ? (
        <Alert color="yellow" role="alert" title={t('buy.notEnough')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('buy.notEnoughBody', { balance: formatNaira(wallet.data!.balance), amount: formatNaira(price) })}</Text>
            <Text size="sm">{t('fund.forPurchase', { service: kindLabel(p.request.service), amount: formatNaira(missing) })}</Text>
            <Group gap="xs">
              <Button size="sm" loading={checkout.isPending} onClick={() => (fund(), checkout.mutate())}>
                {t('fund.pay')}
              </Button>
              <LinkButton to="/fund" size="sm" variant="light" onClick={fund}>
                {t('buy.fundFirst')}
              </LinkButton>
            </Group>
          </Stack>
        </Alert>
      ) : (
        !limitsComing && (
          <>
            {limits.data && (
              <Text size="sm" data-testid="left-today">
                {t('buy.leftToday', { amount: formatNaira(limits.data.leftToday) })}
              </Text>
            )}
            {withPasskey && (
              <>
                <Button onClick={() => void confirm('passkey')} loading={busy}>
                  {t('passkeys.confirm')}
                </Button>
                <Text size="sm">{t('passkeys.orPin')}</Text>
              </>
            )}
            <PinPad value={pin} onChange={setPin} onConfirm={(v) => void confirm(v)} busy={busy} focus={withPasskey ? undefined : tries} />
          </>
        )
      )}
      <Button variant="subtle" onClick={p.onCancel} disabled={busy}>
        {t('app.cancel')}
      </Button>
    </Stack>
  );
}
