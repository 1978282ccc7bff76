import { Alert, Button, Card, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import { AmountInput } from '../../components/AmountInput';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import i18next from 'i18next';
import { ApiError, newIdempotencyKey } from '../../api/client';
import { useAuth } from '../../app/auth';
import { peekDraft } from '../../app/draft';
import { formatNaira } from '../../app/format';
import { useKindLabel } from '../../app/kind-tabs';
import { errorMessage, isCode } from '../../app/errors';
import { walletQueries } from '../../api/queries/wallet';
import { TOPUP_BOUNDS, topupSchema } from '../../api/schemas';
import { amountProps, showServerIssues, useSchemaForm } from '../../components/form';
import * as api from '../../api/calls';

/**
 * The refusal of a payment's start in the customer's words. The service refuses to send the payer back to an address
 * that is not the app's own (PUBLIC_URL, or TOPUP_CALLBACK_ORIGINS): the app was opened at another address, which
 * is the operator's matter; the customer reads what to do, the developer's detail goes to the browser's log.
 */
function fundingRefusal(err: unknown): string {
  if (err instanceof ApiError && err.code === 'VALIDATION_FAILED' && err.issues.some((i) => i.path === 'callbackUrl')) {
    console.warn(`startProcessorTopup refused this address (${window.location.origin}): ${err.message}`);
    return i18next.t('fund.otherAddress');
  }
  return errorMessage(err);
}

/** Fund the wallet: the processor's checkout, then back to /fund/return, which waits for the service to confirm. */
export function Fund() {
  const { t } = useTranslation();
  const auth = useAuth();
  const kindLabel = useKindLabel();
  // A purchase the balance was too low for (app/draft.ts, keepForFunding): what it still needs, offered (₦100 at least).
  const [funding] = useState(() => {
    const draft = peekDraft();
    return draft?.funding === undefined ? null : { service: draft.service, amount: draft.funding };
  });
  // startProcessorTopup's own amount rule (api/schemas.ts): ₦100 to ₦1,000,000, said under the field.
  const form = useSchemaForm(topupSchema, {
    amount: (funding ? Math.max(Math.ceil(funding.amount), TOPUP_BOUNDS[0]) : '') as number | '',
  });
  const [underFields, setUnderFields] = useState(false);
  const key = useRef(newIdempotencyKey());
  const start = useMutation({
    mutationFn: (naira: number) =>
      api.startProcessorTopup(
        { amount: naira, email: auth.user!.email, callbackUrl: `${window.location.origin}/fund/return` },
        { idempotencyKey: key.current },
      ),
    onSuccess: (r) => window.location.assign(r.authorizationUrl),
    onError: (err) => setUnderFields(showServerIssues(form, err)),
  });
  const submit = form.onSubmit((v) => {
    const c = topupSchema.safeParse(v);
    if (c.success) start.mutate(c.data.amount);
  });
  const amountInput = amountProps(form, 'amount');
  return (
    <Stack maw={480}>
      <Title order={1}>{t('fund.title')}</Title>
      {funding && (
        <Alert color="blue" data-testid="fund-for-purchase">
          {t('fund.forPurchase', { service: kindLabel(funding.service), amount: formatNaira(funding.amount) })}
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack>
          <AmountInput
            label={t('fund.amount')}
            description={t('fund.amountHelp')}
            min={TOPUP_BOUNDS[0]}
            max={TOPUP_BOUNDS[1]}
            {...amountInput}
            onChange={(v) => {
              amountInput.onChange(v);
              key.current = newIdempotencyKey();
            }}
          />
          {start.error && !underFields && (
            <Alert color="red" role="alert">
              {fundingRefusal(start.error)}
            </Alert>
          )}
          <Button type="submit" loading={start.isPending}>
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
    mutationFn: () => api.getOrCreateDedicatedAccount({}),
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
