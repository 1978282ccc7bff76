import { Alert, Button, CopyButton, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { vtuQueries } from '../../api/queries/vtu';
import { walletQueries } from '../../api/queries/wallet';
import { errorMessage } from '../../app/errors';
import { formatNaira } from '../../app/format';
import { LinkButton } from '../../components/LinkButton';
import { ShareReceipt } from '../../components/ShareReceipt';
import { KIND_RESULTS } from './kind-results';
import { startRepeat } from './repeat';
import { SaveBill } from './SavedBills';
import { Loading } from '../../components/Loaded';

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
      {!tx.data && !tx.error && <Loading />}
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
            {status === 'processing' && <StuckHelp createdAt={tx.data.createdAt} reference={tx.data.reference} />}
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
                <TokenGroups token={tx.data.token} />
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
          {/* The kinds' parts come with their kinds' code (kind-results.ts). */}
          <Suspense fallback={null}>
            {KIND_RESULTS.map((Result, i) => (
              <Result key={i} tx={tx.data} />
            ))}
          </Suspense>
          <Text size="sm">
            {t('result.reference')}: {tx.data.reference}
          </Text>
          {status === 'success' && <ShareReceipt reference={tx.data.reference} purchase={tx.data} />}
          {status === 'success' && <SaveBill tx={tx.data} />}
          <Group>
            <LinkButton to="/transactions/$reference" params={{ reference: tx.data.reference }} variant="light">
              {t('result.viewReceipt')}
            </LinkButton>
            {/* Not while it is processing: a second purchase beside one that may still deliver could pay twice. */}
            {status !== 'processing' && (
              <Button
                onClick={() => {
                  const service = startRepeat(tx.data);
                  void navigate({ to: '/buy', search: service ? { service } : {} });
                }}
              >
                {t('buy.another')}
              </Button>
            )}
          </Group>
        </Stack>
      )}
    </Stack>
  );
}

/** How long a purchase may be processing before the screen offers help (providers settle most within a minute). */
export const STUCK_AFTER_MS = 3 * 60_000;

/**
 * A purchase still processing after STUCK_AFTER_MS: what happens next (it settles or is refunded by itself) and a
 * "Get help" link to a report of an issue, its reference filled in (Orders and help, /orders?report=<reference>).
 */
function StuckHelp({ createdAt, reference }: { createdAt: string; reference: string }) {
  const { t } = useTranslation();
  const [stuck, setStuck] = useState(false);
  useEffect(() => {
    const id = setTimeout(() => setStuck(true), Math.max(0, Date.parse(createdAt) + STUCK_AFTER_MS - Date.now()));
    return () => clearTimeout(id);
  }, [createdAt]);
  if (!stuck) return null;
  return (
    <Alert color="yellow" title={t('result.stuckTitle')} mt="sm">
      <Stack gap="xs">
        <Text size="sm">{t('result.stuckBody')}</Text>
        <LinkButton to="/orders" search={{ report: reference } as never} hash="report" variant="light">
          {t('result.getHelp')}
        </LinkButton>
      </Stack>
    </Alert>
  );
}

/**
 * An electricity token as its groups ("1234-5678-…" or "1234 5678 …"), each kept on one line: a narrow phone or large
 * text wraps the token between groups, never inside one. The text is the token as the service sent it.
 */
function TokenGroups({ token }: { token: string }) {
  const groups = token.match(/[^\s-]+[\s-]*/g) ?? [token];
  return groups.map((g, i) => (
    <span key={i}>
      {i > 0 && <wbr />}
      <span className="token-group">{g}</span>
    </span>
  ));
}
