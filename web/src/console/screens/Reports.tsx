import { Anchor, Button, Select, Stack, Tabs, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminQueries } from '../../api/queries/admin';
import { threadLink } from '../cases/PurchaseCase';
import { LinkedText } from '../references';
import { ConsoleLink, useSetSearch } from '../nav';
import { useCan } from '../roles';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ReasonDialog } from '../../components/ReasonDialog';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import * as api from '../../api/calls';

const LIMIT = 20;

/** What customers reported: problems with a transaction (resolved with a note they receive) and app crashes. */
export function Reports() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/reports' });
  const setSearch = useSetSearch('/console/reports');
  const tab = search.tab ?? 'transactions';
  return (
    <Stack>
      <ScreenTitle title={t('console.reports.title')} />
      <Tabs value={tab} onChange={(v) => setSearch({ tab: (v ?? undefined) as typeof search.tab, status: undefined })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="transactions">{t('console.reports.transactionsTab')}</Tabs.Tab>
          <Tabs.Tab value="issues">{t('console.reports.issuesTab')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="transactions" pt="md">
          <TransactionReports />
        </Tabs.Panel>
        <Tabs.Panel value="issues" pt="md">
          <IssueReports />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function TransactionReports() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/reports' });
  const setSearch = useSetSearch('/console/reports');
  const status = (search.status ?? 'open') as 'open' | 'resolved';
  const offset = search.offset ?? 0;
  const list = useQuery(adminQueries.transactionReports({ status, limit: LIMIT, offset }));
  const [resolving, setResolving] = useState<{ id: string; reference: string } | null>(null);
  const qc = useQueryClient();
  const can = useCan();
  return (
    <Stack>
      <Select
        label={t('console.reports.status')}
        data={[
          { value: 'open', label: t('console.reports.open') },
          { value: 'resolved', label: t('console.reports.resolved') },
        ]}
        value={status}
        onChange={(v) => setSearch({ status: v ?? undefined })}
        allowDeselect={false}
        w={160}
      />
      <Loaded query={list}>
        {(data) => (
          <Stack>
            <DataTable
              caption={t(status === 'open' ? 'console.reports.captionOpen' : 'console.reports.captionResolved')}
              rows={data.items}
              rowKey={(r) => r.id}
              empty={t('console.reports.empty')}
              columns={[
                { header: t('console.reports.reference'), cell: (r) => <LinkedText text={r.reference} /> },
                {
                  header: t('console.reports.support'),
                  cell: (r) =>
                    r.thread ? (
                      <Anchor component={ConsoleLink} link={threadLink(r.thread.id, r.thread.status)}>
                        {t('console.reports.thread', { status: r.thread.status })}
                      </Anchor>
                    ) : (
                      '—'
                    ),
                },
                { header: t('console.reports.kind'), cell: (r) => r.transactionType },
                { header: t('console.reports.amount'), cell: (r) => money(r.amount) },
                { header: t('console.reports.problem'), cell: (r) => r.category.replace(/_/g, ' ') },
                { header: t('console.reports.description'), cell: (r) => <Text size="sm">{r.description}</Text> },
                { header: t('console.reports.reported'), cell: (r) => when(r.createdAt) },
                {
                  header: t('console.reports.status'),
                  cell: (r) =>
                    r.status === 'open' && can('adminResolveTransactionReport') ? (
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => setResolving(r)}
                        aria-label={t('console.reports.resolveLabel', { reference: r.reference })}
                      >
                        {t('console.reports.resolve')}
                      </Button>
                    ) : (
                      <Stack gap={2}>
                        <StatusBadge status={r.status} />
                        <Text size="xs">{r.resolutionNote}</Text>
                      </Stack>
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
      <ReasonDialog
        opened={resolving !== null}
        title={t('console.reports.resolveLabel', { reference: resolving?.reference ?? '' })}
        label={t('console.reports.note')}
        confirm={t('console.reports.resolve')}
        onClose={() => setResolving(null)}
        onConfirm={async (note) => {
          await api.adminResolveTransactionReport({ id: resolving!.id, note: note ?? '' });
          await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'reports'] });
        }}
      />
    </Stack>
  );
}

function IssueReports() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/reports' });
  const setSearch = useSetSearch('/console/reports');
  const offset = search.offset ?? 0;
  const list = useQuery(adminQueries.issueReports({ limit: LIMIT, offset }));
  return (
    <Loaded query={list}>
      {(data) => (
        <Stack>
          <DataTable
            caption={t('console.reports.issuesCaption')}
            rows={data.items}
            rowKey={(r) => r.id}
            empty={t('console.reports.noIssues')}
            columns={[
              { header: t('console.reports.message'), cell: (r) => <Text size="sm">{r.message}</Text> },
              { header: t('console.reports.address'), cell: (r) => r.url ?? '—' },
              { header: t('console.reports.version'), cell: (r) => r.appVersion ?? '—' },
              { header: t('console.reports.reporter'), cell: (r) => r.reporter ?? '—' },
              { header: t('console.reports.browser'), cell: (r) => <Text size="xs">{r.userAgent ?? '—'}</Text> },
              { header: t('console.reports.when'), cell: (r) => when(r.createdAt) },
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
  );
}
