import { Anchor, Button, Select, Stack, Tabs, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { post } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { threadLink } from '../cases/PurchaseCase';
import { LinkedText } from '../references';
import { ConsoleLink, useScreenSearch } from '../nav';
import { useCan } from '../roles';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ReasonDialog } from '../../components/ReasonDialog';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import * as ops from '../../api/operations';

const LIMIT = 20;

/** What customers reported: problems with a transaction (resolved with a note they receive) and app crashes. */
export function Reports() {
  const search = useScreenSearch();
  const tab = search.text('tab') || 'transactions';
  return (
    <Stack>
      <ScreenTitle title="Reports" />
      <Tabs value={tab} onChange={(v) => search.set({ tab: v ?? undefined, status: undefined })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="transactions">Transaction reports</Tabs.Tab>
          <Tabs.Tab value="issues">App issue reports</Tabs.Tab>
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
  const search = useScreenSearch();
  const status = (search.text('status') || 'open') as 'open' | 'resolved';
  const offset = search.num('offset', 0);
  const list = useQuery(adminQueries.transactionReports({ status, limit: LIMIT, offset }));
  const [resolving, setResolving] = useState<{ id: string; reference: string } | null>(null);
  const qc = useQueryClient();
  const can = useCan();
  return (
    <Stack>
      <Select
        label="Status"
        data={['open', 'resolved']}
        value={status}
        onChange={(v) => search.set({ status: v ?? undefined })}
        allowDeselect={false}
        w={160}
      />
      <Loaded query={list}>
        {(data) => (
          <Stack>
            <DataTable
              caption={`${status} transaction reports`}
              rows={data.items}
              rowKey={(r) => r.id}
              empty="No reports."
              columns={[
                { header: 'Reference', cell: (r) => <LinkedText text={r.reference} /> },
                {
                  header: 'Support',
                  cell: (r) =>
                    r.thread ? (
                      <Anchor component={ConsoleLink} {...threadLink(r.thread.id, r.thread.status)}>
                        Thread ({r.thread.status})
                      </Anchor>
                    ) : (
                      '—'
                    ),
                },
                { header: 'Kind', cell: (r) => r.transactionType },
                { header: 'Amount', cell: (r) => money(r.amount) },
                { header: 'Problem', cell: (r) => r.category.replace(/_/g, ' ') },
                { header: 'Description', cell: (r) => <Text size="sm">{r.description}</Text> },
                { header: 'Reported', cell: (r) => when(r.createdAt) },
                {
                  header: 'Status',
                  cell: (r) =>
                    r.status === 'open' && can('adminResolveTransactionReport') ? (
                      <Button size="xs" variant="light" onClick={() => setResolving(r)} aria-label={`Resolve the report on ${r.reference}`}>
                        Resolve
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
              onChange={(o) => search.set({ offset: o })}
            />
          </Stack>
        )}
      </Loaded>
      <ReasonDialog
        opened={resolving !== null}
        title={`Resolve the report on ${resolving?.reference ?? ''}`}
        label="Note to the customer"
        confirm="Resolve"
        onClose={() => setResolving(null)}
        onConfirm={async (note) => {
          await post(ops.adminResolveTransactionReport, { id: resolving!.id, note: note ?? '' });
          await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'reports'] });
        }}
      />
    </Stack>
  );
}

function IssueReports() {
  const search = useScreenSearch();
  const offset = search.num('offset', 0);
  const list = useQuery(adminQueries.issueReports({ limit: LIMIT, offset }));
  return (
    <Loaded query={list}>
      {(data) => (
        <Stack>
          <DataTable
            caption="Errors the app reported, newest first"
            rows={data.items}
            rowKey={(r) => r.id}
            empty="No issue reports."
            columns={[
              { header: 'Message', cell: (r) => <Text size="sm">{r.message}</Text> },
              { header: 'Address', cell: (r) => r.url ?? '—' },
              { header: 'Version', cell: (r) => r.appVersion ?? '—' },
              { header: 'Reporter', cell: (r) => r.reporter ?? '—' },
              { header: 'Browser', cell: (r) => <Text size="xs">{r.userAgent ?? '—'}</Text> },
              { header: 'When', cell: (r) => when(r.createdAt) },
            ]}
          />
          <Pager
            offset={offset}
            limit={LIMIT}
            count={data.items.length}
            hasMore={data.hasMore}
            onChange={(o) => search.set({ offset: o })}
          />
        </Stack>
      )}
    </Loaded>
  );
}
