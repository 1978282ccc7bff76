import { Alert, Button, Card, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import { AmountInput } from '../../components/AmountInput';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey, post } from '../../api/client';
import { useAuth } from '../../app/auth';
import { errorMessage, isCode } from '../../app/errors';
import { walletQueries } from '../../api/queries/wallet';

/** Fund the wallet: the processor's checkout, then back to /fund/return, which waits for the service to confirm. */
export function Fund() {
  const { t } = useTranslation();
  const auth = useAuth();
  const [amount, setAmount] = useState<number | ''>('');
  const key = useRef(newIdempotencyKey());
  const start = useMutation({
    mutationFn: (naira: number) =>
      post(
        '/_serverFn/startProcessorTopupBearerPayments',
        { amount: naira, email: auth.user!.email, callbackUrl: `${window.location.origin}/fund/return` },
        { idempotencyKey: key.current },
      ),
    onSuccess: (r) => window.location.assign(r.authorizationUrl),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    if (typeof amount === 'number') start.mutate(amount);
  }
  return (
    <Stack maw={480}>
      <Title order={1}>{t('fund.title')}</Title>
      <form onSubmit={submit} noValidate>
        <Stack>
          <AmountInput
            label={t('fund.amount')}
            description={t('fund.amountHelp')}
            min={100}
            max={1_000_000}
            value={amount}
            onChange={(v) => {
              setAmount(v);
              key.current = newIdempotencyKey();
            }}
          />
          {start.error && (
            <Alert color="red" role="alert">
              {errorMessage(start.error)}
            </Alert>
          )}
          <Button type="submit" loading={start.isPending} disabled={typeof amount !== 'number' || amount < 100 || amount > 1_000_000}>
            {t('fund.pay')}
          </Button>
        </Stack>
      </form>
      <DedicatedAccount />
    </Stack>
  );
}

function DedicatedAccount() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const wallet = useQuery(walletQueries.state());
  const create = useMutation({
    mutationFn: () => post('/_serverFn/getOrCreateDedicatedAccountBearerWallet', {}),
    onSuccess: () => qc.invalidateQueries({ queryKey: walletQueries.all() }),
  });
  const account = wallet.data?.dedicatedAccount ?? create.data?.dedicatedAccount;
  return (
    <Card withBorder component="section" aria-labelledby="dva">
      <Title order={2} size="h4" id="dva">
        {t('fund.dedicated')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('fund.dedicatedHelp')}
      </Text>
      {account ? (
        <Stack gap={4}>
          <Group>
            <Text>
              {t('fund.accountNumber')}: <strong data-testid="dva-number">{account.accountNumber}</strong>
            </Text>
            <CopyButton value={account.accountNumber}>
              {({ copied, copy }) => (
                <Button size="compact-sm" variant="light" onClick={copy} aria-label={`${t('app.copy')} ${t('fund.accountNumber')}`}>
                  {copied ? t('app.copied') : t('app.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Text>
            {t('fund.bank')}: {account.bankName}
          </Text>
          <Text>
            {t('fund.accountName')}: {account.accountName}
          </Text>
        </Stack>
      ) : isCode(create.error, 'KYC_TIER_REQUIRED') ? (
        <Alert color="yellow">{t('fund.dedicatedNeedsTier2')}</Alert>
      ) : (
        <Stack>
          {create.error && (
            <Alert color="red" role="alert">
              {errorMessage(create.error)}
            </Alert>
          )}
          <Button variant="light" onClick={() => create.mutate()} loading={create.isPending}>
            {t('fund.dedicatedGet')}
          </Button>
        </Stack>
      )}
    </Card>
  );
}
