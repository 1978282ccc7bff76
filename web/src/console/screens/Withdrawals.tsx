import { Alert, Anchor, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import i18next from 'i18next';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { ConsoleLink, useSetSearch } from '../nav';
import { useCan } from '../roles';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import * as api from '../../api/calls';

const LIMIT = 25;
const STATUSES = ['pending', 'success', 'failed', 'reversed'] as const;
type Status = (typeof STATUSES)[number];

/** The filter: every withdrawal, one status, or the stuck ones (still pending with the processor past the setting). */
const SHOW = ['all', 'stuck', ...STATUSES] as const;

/** What an operator reads after a requery: the processor's answer and where the withdrawal now stands. */
export function requeryNotice(reference: string, processorStatus: string | null, status: string): string {
  const t = i18next.t;
  if (processorStatus === null) return t('console.withdrawals.notAsked', { reference, status });
  const ended =
    status === 'success'
      ? t('console.withdrawals.paid')
      : status === 'pending'
        ? t('console.withdrawals.stillPending')
        : t('console.withdrawals.refunded', { status });
  return t('console.withdrawals.answered', { reference, answer: processorStatus, ended });
}

/**
 * Withdrawals to a bank (issue 43): newest first, by status, or the stuck ones (the dashboard's tile: pending with the
 * processor past WITHDRAWAL_STUCK_AFTER_MINUTES, oldest first). Requery asks the processor now and applies its answer
 * (paid, refunded once, or polled again): only the processor's word moves money, so no second operator is asked.
 */
export function Withdrawals() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/withdrawals' });
  const setSearch = useSetSearch('/console/withdrawals');
  const offset = search.offset ?? 0;
  const show = search.show ?? '';
  const status = (STATUSES as readonly string[]).includes(show) ? (show as Status) : undefined;
  const stuck = show === 'stuck';
  const list = useQuery(
    adminQueries.withdrawals({ limit: LIMIT, offset, ...(status ? { status } : {}), ...(stuck ? { stuck: true } : {}) }),
  );
  const qc = useQueryClient();
  const can = useCan();
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function requery(reference: string) {
    setBusy(reference);
    setError(null);
    try {
      const r = await api.adminRequeryWithdrawal({ reference });
      setNotice(requeryNotice(reference, r.processorStatus, r.withdrawal.status));
      await qc.invalidateQueries({ queryKey: adminQueries.all() });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  }

  return (
    <Stack>
      <ScreenTitle title={t('console.withdrawals.title')} />
      {notice && (
        <Alert
          color="blue"
          role="status"
          withCloseButton
          closeButtonLabel={t('console.withdrawals.dismiss')}
          onClose={() => setNotice(null)}
        >
          {notice}
        </Alert>
      )}
      <Failure error={error} />
      <Text size="sm" c="dimmed">
        {t('console.withdrawals.intro')}
      </Text>
      <Group align="end">
        <Select
          label={t('console.withdrawals.show')}
          data={SHOW.map((s) => ({ value: s === 'all' ? '' : s, label: t(`console.withdrawals.shows.${s}`) }))}
          value={stuck || status ? show : ''}
          onChange={(v) => setSearch({ show: (v || undefined) as typeof search.show, offset: undefined })}
          allowDeselect={false}
          w={260}
        />
      </Group>
      <Loaded query={list}>
        {(data) => (
          <Stack>
            {stuck && <Text size="sm">{t('console.withdrawals.stuckFor', { minutes: Math.round(data.stuckAfterSeconds / 60) })}</Text>}
            <DataTable
              caption={t(stuck ? 'console.withdrawals.stuckCaption' : 'console.withdrawals.caption')}
              rows={data.items}
              rowKey={(w) => w.reference}
              empty={t('console.withdrawals.empty')}
              columns={[
                { header: t('console.withdrawals.reference'), cell: (w) => w.reference },
                {
                  header: t('console.withdrawals.customer'),
                  cell: (w) => (
                    <Anchor component={ConsoleLink} link={{ to: '/console/customers/$userId', params: { userId: w.userId } }} size="sm">
                      {w.userId.slice(0, 8)}
                    </Anchor>
                  ),
                },
                { header: t('console.withdrawals.to'), cell: (w) => `${w.accountName}, ${w.bankName} ${w.accountNumber}` },
                {
                  header: t('console.withdrawals.amount'),
                  cell: (w) => t('console.withdrawals.withFee', { amount: money(w.amount), fee: money(w.fee) }),
                },
                { header: t('console.withdrawals.status'), cell: (w) => <StatusBadge status={w.status} /> },
                {
                  header: t('console.withdrawals.processor'),
                  cell: (w) => t('console.withdrawals.asked', { code: w.transferCode ?? t('console.withdrawals.noCode'), polls: w.polls }),
                },
                { header: t('console.withdrawals.requested'), cell: (w) => when(w.createdAt) },
                {
                  header: t('console.withdrawals.actions'),
                  cell: (w) =>
                    w.status === 'pending' && can('adminRequeryWithdrawal') ? (
                      <Button
                        size="xs"
                        variant="default"
                        loading={busy === w.reference}
                        onClick={() => void requery(w.reference)}
                        aria-label={t('console.withdrawals.requeryOne', { reference: w.reference })}
                      >
                        {t('console.withdrawals.requery')}
                      </Button>
                    ) : (
                      (w.failureReason ?? '—')
                    ),
                },
              ]}
            />
            <Pager
              offset={offset}
              limit={LIMIT}
              count={data.items.length}
              hasMore={data.hasMore}
              onChange={(o) => setSearch({ offset: o })}
            />
          </Stack>
        )}
      </Loaded>
    </Stack>
  );
}
