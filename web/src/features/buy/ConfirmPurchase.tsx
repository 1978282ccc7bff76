import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, newIdempotencyKey } from '../../api/client';
import { errorMessage } from '../../app/errors';
import { formatNaira } from '../../app/format';
import { buyOnce, type PurchaseRequest } from './buy-once';
import { PinPad } from '../../components/PinPad';
import { purchaseReducer } from './purchase-state';

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
  reprice?: () => Promise<number | undefined>;
  onCancel(): void;
  onBusyChange?: (busy: boolean) => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [pin, setPin] = useState('');
  const [state, dispatch] = useReducer(purchaseReducer, { phase: 'confirm', price: p.price });
  const key = useRef(newIdempotencyKey());
  const price = 'price' in state ? state.price : p.price;

  async function confirm(value: string) {
    dispatch({ type: 'submit' });
    try {
      const tx = await buyOnce(
        { ...p.request, amount: FACE_VALUE.has(p.request.service) ? p.request.amount : price },
        value,
        key.current,
        () => dispatch({ type: 'connectionLost' }),
      );
      dispatch({ type: 'answered', tx });
      void qc.invalidateQueries({ queryKey: ['wallet'] });
      void navigate({ to: '/buy/result/$id', params: { id: tx.id } });
    } catch (err) {
      key.current = newIdempotencyKey();
      setPin('');
      const code = err instanceof ApiError ? err.code : 'INTERNAL';
      dispatch({ type: 'refused', code, message: errorMessage(err), newPrice: code === 'PRICE_CHANGED' ? await p.reprice?.() : undefined });
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
      <PinPad value={pin} onChange={setPin} onConfirm={(v) => void confirm(v)} busy={busy} />
      <Button variant="subtle" onClick={p.onCancel} disabled={busy}>
        {t('app.cancel')}
      </Button>
    </Stack>
  );
}
