import { Alert, Button, CopyButton, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { vtuQueries } from '../../api/queries/vtu';
import { walletQueries } from '../../api/queries/wallet';
import { errorMessage } from '../../app/errors';
import { formatNaira } from '../../app/format';
import { LinkButton } from '../../components/LinkButton';
import { ShareReceipt } from '../../components/ShareReceipt';
import { KIND_RESULTS } from './kind-screens';
import { startRepeat } from './repeat';
import { SaveBill } from './SavedBills';

/** A purchase's outcome, updated live while processing (polled until success or failed-and-refunded). */
export function PurchaseResultScreen() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { id } = useParams({ from: '/app/buy/result/$id' });
  const navigate = useNavigate();
  const tx = useQuery({
    ...vtuQueries.transaction(id),
    refetchInterval: (q) => (q.state.data?.status === 'processing' ? 2000 : false),
  });
  const status = tx.data?.status;
  useEffect(() => {
    if (status && status !== 'processing') void qc.invalidateQueries({ queryKey: walletQueries.all() });
  }, [status, qc]);
  return (
    <Stack maw={520}>
      <Title order={1}>{t('buy.title')}</Title>
      {tx.error && (
        <Alert color="red" role="alert">
          {errorMessage(tx.error)}
        </Alert>
      )}
      {!tx.data && !tx.error && <Loader aria-label={t('app.loading')} />}
      {tx.data && (
        <Stack>
          <div role="status" aria-live="polite" data-testid="purchase-status">
            {status === 'success' && (
              <Alert color="green" title={t('result.success')}>
                {formatNaira(tx.data.amount)} · {tx.data.recipient}
              </Alert>
            )}
            {status === 'processing' && (
              <Alert color="blue" title={t('result.processing')} icon={<Loader size="xs" aria-hidden />}>
                {t('result.processingBody')}
              </Alert>
            )}
            {status === 'failed' && (
              <Alert color="red" title={t('result.failed')}>
                {t('result.failedBody', { amount: formatNaira(tx.data.amount) })}
              </Alert>
            )}
          </div>
          {tx.data.token && (
            <Stack gap={4}>
              <Text fw={600}>{t('result.token')}</Text>
              <Text className="token-box" data-testid="token">
                {tx.data.token}
              </Text>
              {tx.data.units && (
                <Text data-testid="units">
                  {t('tx.units')}: {tx.data.units}
                </Text>
              )}
              <CopyButton value={tx.data.token}>
                {({ copied, copy }) => (
                  <Button onClick={copy} variant="light">
                    {copied ? t('app.copied') : `${t('app.copy')} ${t('result.token')}`}
                  </Button>
                )}
              </CopyButton>
            </Stack>
          )}
          {tx.data.pins && tx.data.pins.length > 0 && (
            <Stack gap={4}>
              <Text fw={600}>{t('result.pins')}</Text>
              {tx.data.pins.map((p) => (
                <Text key={p.pin} className="token-box" fz="lg">
                  {p.pin}
                  {p.serial ? ` · ${p.serial}` : ''}
                </Text>
              ))}
            </Stack>
          )}
          {KIND_RESULTS.map((Result, i) => (
            <Result key={i} tx={tx.data} />
          ))}
          <Text size="sm">
            {t('result.reference')}: {tx.data.reference}
          </Text>
          {status === 'success' && <ShareReceipt reference={tx.data.reference} purchase={tx.data} />}
          {status === 'success' && <SaveBill tx={tx.data} />}
          <Group>
            <LinkButton to="/transactions/$reference" params={{ reference: tx.data.reference }} variant="light">
              {t('result.viewReceipt')}
            </LinkButton>
            <Button
              onClick={() => {
                const service = startRepeat(tx.data);
                void navigate({ to: '/buy', search: service ? { service } : {} });
              }}
            >
              {t('buy.another')}
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
