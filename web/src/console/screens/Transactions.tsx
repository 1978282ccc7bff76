import { Alert, Button, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey, type GetOutput } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { useOperatorStepUp } from '../step-up';
import { Failure } from '../../components/Failure';
import { JobProgress } from '../JobProgress';
import { TransactionSearch } from './TransactionSearch';
import { useSetSearch } from '../nav';
import { ReferenceLink } from '../references';
import { useCan } from '../roles';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ReasonDialog } from '../../components/ReasonDialog';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import * as ops from '../../api/operations';
import * as api from '../../api/calls';

const LIMIT = 20;
type Outcome = 'delivered' | 'failed';
type Stuck = GetOutput<typeof ops.adminListStuckVtuTransactions>['items'][number];

/**
 * A search over every purchase (sorted and paged by the service), and the purchases still processing after VTU_STUCK_AFTER_MS: requery the provider now, or request a resolution
 * (delivered, or failed and refunded) with a note of how the outcome was confirmed. A resolution at or above its
 * threshold waits for a second operator in the approvals inbox; both steps ask for step-up.
 */
export function Transactions() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/transactions' });
  const setSearch = useSetSearch('/console/transactions');
  const offset = search.offset ?? 0;
  const list = useQuery(adminQueries.stuck({ limit: LIMIT, offset }));
  // The dashboard's tile opens the stuck purchases themselves (view=stuck): first on the screen, the focus on them.
  const stuckFirst = search.view === 'stuck';
  const stuckTitle = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (stuckFirst) stuckTitle.current?.focus();
  }, [stuckFirst]);
  const qc = useQueryClient();
  const can = useCan();
  const stepUp = useOperatorStepUp();
  const [resolving, setResolving] = useState<{ id: string; reference: string } | null>(null);
  const [outcome, setOutcome] = useState<Outcome>('failed');
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [bulkJob, setBulkJob] = useState<string | null>(null);
  async function bulkRequery() {
    setError(null);
    try {
      setBulkJob((await api.adminStartBulkRequery({})).jobId);
    } catch (err) {
      setError(err);
    }
  }
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'stuck'] }),
      qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'transactions'] }),
    ]);

  async function requery(id: string, reference: string) {
    setBusy(id);
    setError(null);
    try {
      const r = await api.adminRequeryVtuTransaction({ id });
      setNotice(t('console.transactions.answered', { reference, status: r.providerStatus, outcome: r.transaction.status }));
      await refresh();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  }

  async function resolve(note: string | undefined) {
    if (!resolving) return;
    const key = newIdempotencyKey();
    const r = (await stepUp.withGrant((grantToken) =>
      api.adminResolveVtuTransaction(
        { id: resolving.id, outcome, note: note ?? '' },
        { idempotencyKey: key, ...(grantToken ? { grantToken } : {}) },
      ),
    )) as { status?: string; transaction: { status: string } };
    setNotice(
      r.status === 'pending'
        ? t('console.transactions.requested', { reference: resolving.reference })
        : t('console.transactions.resolved', { reference: resolving.reference, status: r.transaction.status }),
    );
    await refresh();
  }

  const stuck = (
    <Stack component="section" aria-labelledby="stuck-purchases">
      <Title order={2} size="h3" id="stuck-purchases" ref={stuckTitle} tabIndex={-1}>
        {t('console.transactions.stuck')}
      </Title>
      {bulkJob && <JobProgress key={bulkJob} jobId={bulkJob} label={t('console.transactions.bulk')} />}
      <Text size="sm" c="dimmed">
        {t('console.transactions.stuckIntro')}
      </Text>
      <Loaded query={list}>
        {(data) => (
          <Stack>
            <DataTable
              caption={t('console.transactions.stuckCaption')}
              rows={data.items}
              rowKey={(t) => t.id}
              empty={t('console.transactions.noStuck')}
              columns={[
                // The purchase's page: the search filtered to it, with its reports and threads.
                { header: t('console.transactions.reference'), cell: (t) => <ReferenceLink reference={t.reference} /> },
                { header: t('console.transactions.service'), cell: (t) => `${t.service}${t.network ? ` (${t.network})` : ''}` },
                { header: t('console.transactions.recipient'), cell: (t) => t.recipient },
                { header: t('console.transactions.amount'), cell: (t) => money(t.amount) },
                {
                  header: t('console.transactions.provider'),
                  cell: (x) => `${x.provider}: ${x.lastProviderStatus ?? t('console.transactions.notAsked')} (${x.requeryCount})`,
                },
                { header: t('console.transactions.started'), cell: (t) => when(t.createdAt) },
                { header: t('console.transactions.status'), cell: (t) => <StatusBadge status={t.status} /> },
                ...(can('adminRequeryVtuTransaction') || can('adminResolveVtuTransaction')
                  ? [
                      {
                        header: t('console.transactions.actions'),
                        cell: (row: Stuck) => (
                          <Group gap={4} wrap="nowrap">
                            {can('adminRequeryVtuTransaction') && (
                              <Button
                                size="xs"
                                variant="default"
                                loading={busy === row.id}
                                onClick={() => void requery(row.id, row.reference)}
                                aria-label={t('console.transactions.requeryOne', { reference: row.reference })}
                              >
                                {t('console.transactions.requery')}
                              </Button>
                            )}
                            {can('adminResolveVtuTransaction') && (
                              <Button
                                size="xs"
                                variant="light"
                                onClick={() => setResolving(row)}
                                aria-label={t('console.transactions.resolveOne', { reference: row.reference })}
                              >
                                {t('console.transactions.resolve')}
                              </Button>
                            )}
                          </Group>
                        ),
                      },
                    ]
                  : []),
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
  return (
    <Stack>
      <ScreenTitle title={t('console.transactions.title')}>
        {can('adminStartBulkRequery') && (
          <Button variant="default" onClick={() => void bulkRequery()} disabled={!list.data?.items.length}>
            {t('console.transactions.requeryAll')}
          </Button>
        )}
      </ScreenTitle>
      {notice && (
        <Alert
          color="blue"
          role="status"
          withCloseButton
          closeButtonLabel={t('console.transactions.dismiss')}
          onClose={() => setNotice(null)}
        >
          {notice}
        </Alert>
      )}
      <Failure error={error} />
      {stuckFirst && stuck}
      <TransactionSearch
        busy={busy}
        onRequery={can('adminRequeryVtuTransaction') ? (t) => void requery(t.id, t.reference) : undefined}
        onResolve={can('adminResolveVtuTransaction') ? setResolving : undefined}
      />
      {!stuckFirst && stuck}
      <ReasonDialog
        opened={resolving !== null}
        title={t('console.transactions.resolveOne', { reference: resolving?.reference ?? '' })}
        label={t('console.transactions.how')}
        confirm={t('console.transactions.request')}
        min={5}
        onClose={() => setResolving(null)}
        onConfirm={resolve}
      >
        <SegmentedControl
          aria-label={t('console.transactions.outcome')}
          value={outcome}
          onChange={(v) => setOutcome(v as Outcome)}
          data={[
            { value: 'failed', label: t('console.transactions.failed') },
            { value: 'delivered', label: t('console.transactions.delivered') },
          ]}
        />
      </ReasonDialog>
      {stepUp.modal}
    </Stack>
  );
}
