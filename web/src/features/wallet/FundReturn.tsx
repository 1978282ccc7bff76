import { Alert, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { get } from '../../api/client';
import { errorMessage } from '../../app/errors';
import { formatNaira } from '../../app/format';
import { LinkButton } from '../../app/LinkButton';

/**
 * Back from the processor's checkout. The redirect itself credits nothing: this screen says "confirming" and asks
 * the service until the top-up is settled (the processor's webhook or the service's own verification).
 */
export function FundReturn() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const reference = new URLSearchParams(window.location.search).get('reference') ?? '';
  const intent = useQuery({
    queryKey: ['topup', reference],
    queryFn: () => get('/_serverFn/getTopupIntentBearerWallet', { reference }),
    enabled: reference.length > 0,
    refetchInterval: (q) => (q.state.data?.status === 'pending' || !q.state.data ? 2000 : false),
  });
  const status = intent.data?.status;
  useEffect(() => {
    if (status === 'success') void qc.invalidateQueries({ queryKey: ['wallet'] });
  }, [status, qc]);
  return (
    <Stack maw={480}>
      <Title order={1}>{t('fund.title')}</Title>
      {intent.error && (
        <Alert color="red" role="alert">
          {errorMessage(intent.error)}
        </Alert>
      )}
      {(!status || status === 'pending') && !intent.error && (
        <Stack role="status" aria-live="polite">
          <Loader aria-hidden />
          <Text fw={600}>{t('fund.confirming')}</Text>
          <Text size="sm">{t('fund.confirmingBody')}</Text>
        </Stack>
      )}
      {status === 'success' && (
        <Alert color="green" role="status" title={t('result.success')}>
          {t('fund.success', { amount: formatNaira(intent.data!.amountPaid ?? intent.data!.amount) })}
        </Alert>
      )}
      {status === 'failed' && (
        <Alert color="red" role="alert">
          {t('fund.failed', { reason: intent.data!.failureReason ?? '' })}
        </Alert>
      )}
      {status === 'abandoned' && (
        <Alert color="yellow" role="alert">
          {t('fund.abandoned')}
        </Alert>
      )}
      <LinkButton to="/" variant="light">
        {t('app.goHome')}
      </LinkButton>
    </Stack>
  );
}
