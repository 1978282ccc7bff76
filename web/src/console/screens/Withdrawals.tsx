import { Alert, Anchor, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { post } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { ConsoleLink, useScreenSearch } from '../nav';
import { useCan } from '../roles';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import * as ops from '../../api/operations';

const LIMIT = 25;
const STATUSES = ['pending', 'success', 'failed', 'reversed'] as const;
type Status = (typeof STATUSES)[number];

/** The filter: every withdrawal, one status, or the stuck ones (still pending with the processor past the setting). */
const SHOW = [
  { value: '', label: 'All withdrawals' },
  { value: 'stuck', label: 'Stuck (pending too long)' },
  { value: 'pending', label: 'Pending' },
  { value: 'success', label: 'Paid' },
  { value: 'failed', label: 'Failed (refunded)' },
  { value: 'reversed', label: 'Reversed (refunded)' },
];

/** What an operator reads after a requery: the processor's answer and where the withdrawal now stands. */
export function requeryNotice(reference: string, processorStatus: string | null, status: string): string {
  if (processorStatus === null) return `${reference}: already ${status}; the processor was not asked.`;
  const ended = status === 'success' ? 'paid' : status === 'pending' ? 'still pending: it is polled again' : `${status}: refunded`;
  return `${reference}: the processor answered "${processorStatus}"; the withdrawal is ${ended}.`;
}

/**
 * Withdrawals to a bank (issue 43): newest first, by status, or the stuck ones (the dashboard's tile: pending with the
 * processor past WITHDRAWAL_STUCK_AFTER_MINUTES, oldest first). Requery asks the processor now and applies its answer
 * (paid, refunded once, or polled again): only the processor's word moves money, so no second operator is asked.
 */
export function Withdrawals() {
  const search = useScreenSearch();
  const offset = search.num('offset', 0);
  const show = search.text('show');
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
      const r = await post(ops.adminRequeryWithdrawal, { reference });
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
      <ScreenTitle title="Withdrawals" />
      {notice && (
        <Alert color="blue" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <Failure error={error} />
      <Text size="sm" c="dimmed">
        Customers&apos; withdrawals to a bank account. Requery asks the processor now what became of a pending transfer and applies its
        answer: paid, refunded once, or asked again later.
      </Text>
      <Group align="end">
        <Select
          label="Show"
          data={SHOW}
          value={stuck || status ? show : ''}
          onChange={(v) => search.set({ show: v || undefined, offset: undefined })}
          allowDeselect={false}
          w={260}
        />
      </Group>
      <Loaded query={list}>
        {(data) => (
          <Stack>
            {stuck && (
              <Text size="sm">
                Pending with the processor for more than {Math.round(data.stuckAfterSeconds / 60)} minutes, oldest first.
              </Text>
            )}
            <DataTable
              caption={stuck ? 'Stuck withdrawals, oldest first' : 'Withdrawals, newest first'}
              rows={data.items}
              rowKey={(w) => w.reference}
              empty="No withdrawals match this filter."
              columns={[
                { header: 'Reference', cell: (w) => w.reference },
                {
                  header: 'Customer',
                  cell: (w) => (
                    <Anchor component={ConsoleLink} to={`customers/${w.userId}`} size="sm">
                      {w.userId.slice(0, 8)}
                    </Anchor>
                  ),
                },
                { header: 'To', cell: (w) => `${w.accountName}, ${w.bankName} ${w.accountNumber}` },
                { header: 'Amount', cell: (w) => `${money(w.amount)} + ${money(w.fee)} fee` },
                { header: 'Status', cell: (w) => <StatusBadge status={w.status} /> },
                { header: 'Processor', cell: (w) => `${w.transferCode ?? 'no transfer code'} (asked ${w.polls})` },
                { header: 'Requested', cell: (w) => when(w.createdAt) },
                {
                  header: 'Actions',
                  cell: (w) =>
                    w.status === 'pending' && can('adminRequeryWithdrawal') ? (
                      <Button
                        size="xs"
                        variant="default"
                        loading={busy === w.reference}
                        onClick={() => void requery(w.reference)}
                        aria-label={`Requery ${w.reference}`}
                      >
                        Requery
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
              onChange={(o) => search.set({ offset: o })}
            />
          </Stack>
        )}
      </Loaded>
    </Stack>
  );
}
