import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { AmountInput } from '../../components/AmountInput';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '../../api/client';
import { MONEY_MAX_NAIRA, TRANSFER_MIN_NAIRA, transferRecipientSchema, transferSchema } from '../../api/schemas';
import { errorMessage, isCode } from '../../app/errors';
import { formatNaira } from '../../app/format';
import { useStepUp } from '../../app/StepUp';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { PinPad } from '../../components/PinPad';
import { ShareReceipt } from '../../components/ShareReceipt';
import { refusalMessage } from '../../app/pin-errors';
import { walletQueries } from '../../api/queries/wallet';
import * as api from '../../api/calls';

/** Send money to @username: the recipient's name is shown first; the PIN confirms; step-up when 2FA asks for it. */
export function Transfer() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const stepUp = useStepUp();
  // The service's own rules (api/schemas.ts): the same minimum and maximum as transferWalletFn.
  const form = useSchemaForm(transferSchema, { username: '', amount: '' as number | '', note: '' });
  const [pin, setPin] = useState('');
  // Whether the service's refusal named fields (shown under them) rather than the whole transfer.
  const [underFields, setUnderFields] = useState(false);

  const lookup = useMutation({ mutationFn: (u: string) => api.lookupProfileByUsername({ username: u }) });
  const send = useMutation({
    mutationFn: ({ p, amount, note }: { p: string; amount: number; note?: string }) =>
      stepUp.withGrant(
        // Each attempt its own key: a refusal (STEP_UP_REQUIRED, a wrong PIN) is stored under its key and replayed.
        (grantToken) =>
          api.transferWalletFn(
            { username: lookup.data!.username, amount, pin: p, ...(note ? { note } : {}) },
            { idempotencyKey: newIdempotencyKey(), grantToken },
          ),
        { fresh: true },
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: walletQueries.all() }),
    onError: (err) => setUnderFields(showServerIssues(form, err)),
    onSettled: () => setPin(''),
  });

  // Finding the recipient checks the username only: the amount is asked for once the name is shown.
  function find(e: FormEvent) {
    e.preventDefault();
    const recipient = transferRecipientSchema.safeParse(form.getValues());
    if (form.validateField('username').hasError || !recipient.success) return;
    send.reset();
    lookup.mutate(recipient.data.username);
  }
  function confirm(p: string) {
    const checked = transferSchema.safeParse(form.getValues());
    if (form.validate().hasErrors || !checked.success) return setPin('');
    send.mutate({ p, amount: checked.data.amount, note: checked.data.note || undefined });
  }
  const amount = form.getValues().amount;

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
          <TextInput label={t('transfer.username')} leftSection="@" {...form.getInputProps('username')} required autoCapitalize="none" />
          {lookup.error && (
            <Alert color="red" role="alert">
              {errorMessage(lookup.error)}
            </Alert>
          )}
          <Button type="submit" variant="light" loading={lookup.isPending}>
            {t('transfer.find')}
          </Button>
        </Stack>
      </form>
      {lookup.data && (
        <Stack>
          <Alert color="blue" role="status">
            {t('transfer.recipient', { name: lookup.data.fullName ?? lookup.data.username, username: lookup.data.username })}
          </Alert>
          <AmountInput
            label={t('transfer.amount')}
            min={TRANSFER_MIN_NAIRA}
            max={MONEY_MAX_NAIRA}
            value={amount}
            onChange={(v) => form.setFieldValue('amount', v)}
            error={form.errors.amount as string | undefined}
          />
          <TextInput label={t('transfer.note')} {...form.getInputProps('note')} />
          {send.error && !underFields && (
            <Alert color="red" role="alert">
              {isCode(send.error, 'KYC_TIER_REQUIRED') ? t('transfer.needsTier2') : refusalMessage(send.error)}
            </Alert>
          )}
          {typeof amount === 'number' && amount > 0 && <PinPad value={pin} onChange={setPin} onConfirm={confirm} busy={send.isPending} />}
        </Stack>
      )}
      {stepUp.modal}
    </Stack>
  );
}
