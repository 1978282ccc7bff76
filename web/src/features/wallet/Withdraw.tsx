import { Alert, Button, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '../../api/client';
import { walletQueries } from '../../api/queries/wallet';
import { WITHDRAWAL_MAX_NAIRA, WITHDRAWAL_MIN_NAIRA, withdrawAccountSchema, withdrawSchema } from '../../api/schemas';
import { errorMessage, isCode } from '../../app/errors';
import { formatNaira } from '../../app/format';
import { refusalMessage } from '../../app/pin-errors';
import { useStepUp } from '../../app/StepUp';
import { AmountInput } from '../../components/AmountInput';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { LinkButton } from '../../components/LinkButton';
import { PinPad } from '../../components/PinPad';
import * as api from '../../api/calls';

/**
 * Withdraw to a bank account (issue 43, Tier 2): the bank and the account number first, whose name the bank gives
 * back; then the amount, with the fee and the total shown before the PIN pad; then the withdrawal's status, which the
 * screen follows until the processor's transfer ends.
 */
export function Withdraw() {
  const { t } = useTranslation();
  const options = useQuery(walletQueries.withdrawalOptions());
  if (options.error)
    return (
      <Stack maw={480}>
        <Title order={1}>{t('withdraw.title')}</Title>
        {isCode(options.error, 'KYC_TIER_REQUIRED') ? (
          <Alert color="yellow" role="alert" title={t('withdraw.needsTier2Title')}>
            <Text mb="sm">{t('withdraw.needsTier2')}</Text>
            <LinkButton to="/kyc" size="sm">
              {t('withdraw.raiseTier')}
            </LinkButton>
          </Alert>
        ) : (
          <Alert color="red" role="alert">
            {errorMessage(options.error)}
          </Alert>
        )}
      </Stack>
    );
  if (!options.data) return <Title order={1}>{t('withdraw.title')}</Title>;
  return <WithdrawForm fee={options.data.fee} banks={options.data.banks} />;
}

function WithdrawForm({ fee, banks }: { fee: number; banks: { code: string; name: string }[] }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const stepUp = useStepUp();
  const form = useSchemaForm(withdrawSchema, { bankCode: '', accountNumber: '', amount: '' as number | '' });
  const [pin, setPin] = useState('');
  const [underFields, setUnderFields] = useState(false);
  const resolve = useMutation({
    mutationFn: (a: { bankCode: string; accountNumber: string }) => api.resolveWithdrawalAccount(a),
    onError: (err) => setUnderFields(showServerIssues(form, err)),
  });
  const send = useMutation({
    mutationFn: ({ p, amount }: { p: string; amount: number }) =>
      stepUp.withGrant(
        // Each attempt its own key: the service answers a repeated key with the same withdrawal, never a second debit.
        (grantToken) =>
          api.withdrawToBank(
            { bankCode: resolve.data!.bankCode, accountNumber: resolve.data!.accountNumber, amount, pin: p },
            { idempotencyKey: newIdempotencyKey(), grantToken },
          ),
        { fresh: true },
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: walletQueries.all() }),
    onError: (err) => setUnderFields(showServerIssues(form, err)),
    onSettled: () => setPin(''),
  });

  function check(e: FormEvent) {
    e.preventDefault();
    const account = withdrawAccountSchema.safeParse(form.getValues());
    const bad = [form.validateField('bankCode').hasError, form.validateField('accountNumber').hasError].some(Boolean);
    if (bad || !account.success) return;
    send.reset();
    resolve.mutate(account.data);
  }
  function confirm(p: string) {
    const checked = withdrawSchema.safeParse(form.getValues());
    if (form.validate().hasErrors || !checked.success) return setPin('');
    send.mutate({ p, amount: checked.data.amount });
  }
  // A changed bank or number is a new account: its name is asked again.
  const changed = (field: 'bankCode' | 'accountNumber') => ({
    ...form.getInputProps(field),
    onChange: (e: { currentTarget: { value: string } }) => {
      form.setFieldValue(field, e.currentTarget.value);
      resolve.reset();
    },
  });
  const amount = form.getValues().amount;

  if (send.data) return <WithdrawalStatus reference={send.data.withdrawal.reference} balance={send.data.balance} />;
  return (
    <Stack maw={480}>
      <Title order={1}>{t('withdraw.title')}</Title>
      <form onSubmit={check} noValidate>
        <Stack>
          <NativeSelect
            label={t('withdraw.bank')}
            {...changed('bankCode')}
            data={[{ value: '', label: '—' }, ...banks.map((b) => ({ value: b.code, label: b.name }))]}
            required
          />
          <TextInput label={t('withdraw.accountNumber')} inputMode="numeric" maxLength={10} {...changed('accountNumber')} required />
          {resolve.error && !underFields && (
            <Alert color="red" role="alert">
              {errorMessage(resolve.error)}
            </Alert>
          )}
          {!resolve.data && (
            <Button type="submit" variant="light" loading={resolve.isPending}>
              {t('withdraw.check')}
            </Button>
          )}
        </Stack>
      </form>
      {resolve.data && (
        <Stack>
          <Alert color="blue" role="status" data-testid="account-name">
            {t('withdraw.accountName', { name: resolve.data.accountName, bank: resolve.data.bankName })}
          </Alert>
          <AmountInput
            label={t('withdraw.amount')}
            min={WITHDRAWAL_MIN_NAIRA}
            max={WITHDRAWAL_MAX_NAIRA}
            value={amount}
            onChange={(v) => form.setFieldValue('amount', v)}
            error={form.errors.amount as string | undefined}
          />
          <Table aria-label={t('withdraw.summary')}>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row">{t('withdraw.fee')}</Table.Th>
                <Table.Td data-testid="fee">{formatNaira(fee)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">{t('withdraw.total')}</Table.Th>
                <Table.Td data-testid="total">{typeof amount === 'number' && amount > 0 ? formatNaira(amount + fee) : '—'}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          {send.error && !underFields && (
            <Alert color="red" role="alert">
              {isCode(send.error, 'KYC_TIER_REQUIRED') ? t('withdraw.needsTier2') : refusalMessage(send.error)}
            </Alert>
          )}
          {typeof amount === 'number' && amount > 0 && <PinPad value={pin} onChange={setPin} onConfirm={confirm} busy={send.isPending} />}
        </Stack>
      )}
      {stepUp.modal}
    </Stack>
  );
}

/** The withdrawal as it stands, asked again every 3 seconds while the transfer is under way. */
function WithdrawalStatus({ reference, balance }: { reference: string; balance: number }) {
  const { t } = useTranslation();
  const q = useQuery({
    ...walletQueries.withdrawal(reference),
    refetchInterval: (query) => (query.state.data?.withdrawal.status === 'pending' ? 3000 : false),
  });
  const w = q.data?.withdrawal;
  const status = w?.status ?? 'pending';
  const color = status === 'success' ? 'green' : status === 'pending' ? 'blue' : 'red';
  return (
    <Stack maw={480}>
      <Title order={1}>{t('withdraw.title')}</Title>
      <Alert color={color} role="status" title={t(`withdraw.status_${status}`)} data-testid="withdrawal-status">
        {w &&
          t(`withdraw.body_${status}`, {
            amount: formatNaira(w.amount),
            total: formatNaira(w.total),
            name: w.accountName,
            bank: w.bankName,
          })}
      </Alert>
      <Text size="sm">{t('withdraw.balance', { balance: formatNaira(balance) })}</Text>
      <Text size="sm">
        {t('result.reference')}: {reference}
      </Text>
      <LinkButton to="/" variant="light">
        {t('withdraw.done')}
      </LinkButton>
    </Stack>
  );
}
