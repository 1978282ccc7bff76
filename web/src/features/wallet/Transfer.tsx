import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { AmountInput } from '../../components/AmountInput';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey, post } from '../../api/client';
import { errorMessage, isCode } from '../../app/errors';
import { formatNaira } from '../../app/format';
import { useStepUp } from '../../app/StepUp';
import { PinPad } from '../../components/PinPad';
import { ShareReceipt } from '../../components/ShareReceipt';
import { refusalMessage } from '../../app/pin-errors';
import { walletQueries } from '../../api/queries/wallet';

/** Send money to @username: the recipient's name is shown first; the PIN confirms; step-up when 2FA asks for it. */
export function Transfer() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const stepUp = useStepUp();
  const [username, setUsername] = useState('');
  const [amount, setAmount] = useState<number | ''>('');
  const [note, setNote] = useState('');
  const [pin, setPin] = useState('');

  const lookup = useMutation({ mutationFn: (u: string) => post('/_serverFn/lookupProfileByUsernameBearerWallet', { username: u }) });
  const send = useMutation({
    mutationFn: (p: string) =>
      stepUp.withGrant(
        // Each attempt its own key: a refusal (STEP_UP_REQUIRED, a wrong PIN) is stored under its key and replayed.
        (grantToken) =>
          post(
            '/_serverFn/transferWalletFnBearerWallet',
            { username: lookup.data!.username, amount: amount as number, pin: p, ...(note ? { note } : {}) },
            { idempotencyKey: newIdempotencyKey(), grantToken },
          ),
        { fresh: true },
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: walletQueries.all() }),
    onSettled: () => setPin(''),
  });

  function find(e: FormEvent) {
    e.preventDefault();
    send.reset();
    lookup.mutate(username.replace(/^@/, ''));
  }

  if (send.data)
    return (
      <Stack maw={480}>
        <Title order={1}>{t('transfer.title')}</Title>
        <Alert color="green" role="status" title={t('result.success')}>
          {t('transfer.sent', {
            amount: formatNaira(send.data.amount),
            username: send.data.recipient.username,
            balance: formatNaira(send.data.balance),
          })}
        </Alert>
        <Text size="sm">
          {t('result.reference')}: {send.data.reference}
        </Text>
        <ShareReceipt
          reference={send.data.reference}
          details={{ recipient: `${send.data.recipient.fullName ?? ''} @${send.data.recipient.username}`.trim() }}
        />
      </Stack>
    );
  return (
    <Stack maw={480}>
      <Title order={1}>{t('transfer.title')}</Title>
      <form onSubmit={find} noValidate>
        <Stack>
          <TextInput
            label={t('transfer.username')}
            leftSection="@"
            value={username}
            onChange={(e) => setUsername(e.currentTarget.value.trim())}
            required
            autoCapitalize="none"
          />
          {lookup.error && (
            <Alert color="red" role="alert">
              {errorMessage(lookup.error)}
            </Alert>
          )}
          <Button type="submit" variant="light" loading={lookup.isPending} disabled={username.length < 3}>
            {t('transfer.find')}
          </Button>
        </Stack>
      </form>
      {lookup.data && (
        <Stack>
          <Alert color="blue" role="status">
            {t('transfer.recipient', { name: lookup.data.fullName ?? lookup.data.username, username: lookup.data.username })}
          </Alert>
          <AmountInput label={t('transfer.amount')} min={1} value={amount} onChange={setAmount} />
          <TextInput label={t('transfer.note')} value={note} maxLength={140} onChange={(e) => setNote(e.currentTarget.value)} />
          {send.error && (
            <Alert color="red" role="alert">
              {isCode(send.error, 'KYC_TIER_REQUIRED') ? t('transfer.needsTier2') : refusalMessage(send.error)}
            </Alert>
          )}
          {typeof amount === 'number' && amount > 0 && (
            <PinPad value={pin} onChange={setPin} onConfirm={(p) => send.mutate(p)} busy={send.isPending} />
          )}
        </Stack>
      )}
      {stepUp.modal}
    </Stack>
  );
}
