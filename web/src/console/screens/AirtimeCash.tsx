import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { newIdempotencyKey, post } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { useScreenSearch } from '../nav';
import { useCan } from '../roles';
import { useOperatorStepUp } from '../step-up';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ReasonDialog } from '../../components/ReasonDialog';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import * as ops from '../../api/operations';

const LIMIT = 25;
const STATUSES = ['awaiting', 'credited', 'expired', 'failed'] as const;
type Status = (typeof STATUSES)[number];

/** The filter: every request, one status, or the stuck ones (awaiting past their expiry). */
const SHOW = [
  { value: '', label: 'All requests' },
  { value: 'stuck', label: 'Stuck (awaiting past expiry)' },
  { value: 'awaiting', label: 'Awaiting' },
  { value: 'credited', label: 'Credited' },
  { value: 'expired', label: 'Expired' },
  { value: 'failed', label: 'Failed' },
];

/**
 * Airtime to cash (issue 32): customers' requests, newest first, filtered by status or stuck. An awaiting request can
 * be requeried (the provider is asked now and its answer applied: only the provider's word credits a wallet), or closed
 * with nothing credited, with a note of how the provider confirmed that nothing arrived (step-up).
 */
export function AirtimeCash() {
  const search = useScreenSearch();
  const offset = search.num('offset', 0);
  const show = search.text('show');
  const status = (STATUSES as readonly string[]).includes(show) ? (show as Status) : undefined;
  const list = useQuery(
    adminQueries.airtimeCash({ limit: LIMIT, offset, ...(status ? { status } : {}), ...(show === 'stuck' ? { stuck: true } : {}) }),
  );
  const qc = useQueryClient();
  const can = useCan();
  const stepUp = useOperatorStepUp();
  const [resolving, setResolving] = useState<{ id: string; reference: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'airtimeCash'] });

  async function requery(id: string, reference: string) {
    setBusy(id);
    setError(null);
    try {
      const r = await post(ops.adminRequeryAirtimeCashRequest, { id });
      const credited = r.request.credited !== null ? ` ${money(r.request.credited)} was credited.` : '';
      setNotice(`${reference}: the provider answered "${r.providerStatus}"; the request is ${r.request.status}.${credited}`);
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
    const r = await stepUp.withGrant((grantToken) =>
      post(
        ops.adminResolveAirtimeCashRequest,
        { id: resolving.id, note: note ?? '' },
        { idempotencyKey: key, ...(grantToken ? { grantToken } : {}) },
      ),
    );
    setNotice(`${resolving.reference}: closed with nothing credited; the request is ${r.request.status}.`);
    await refresh();
  }

  return (
    <Stack>
      <ScreenTitle title="Airtime to cash" />
      {notice && (
        <Alert color="blue" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <Failure error={error} />
      <Text size="sm" c="dimmed">
        Customers&apos; requests to turn airtime into wallet money. Requery asks the provider now what arrived and applies its answer; only
        the provider&apos;s confirmation credits a wallet. Close a request with nothing credited once the provider has confirmed that
        nothing arrived.
      </Text>
      <Group align="end">
        <Select
          label="Show"
          data={SHOW}
          value={show === 'stuck' || status ? show : ''}
          onChange={(v) => search.set({ show: v || undefined })}
          allowDeselect={false}
          w={260}
        />
      </Group>
      <Loaded query={list}>
        {(data) => (
          <Stack>
            <DataTable
              caption="Airtime-to-cash requests, newest first"
              rows={data.items}
              rowKey={(r) => r.id}
              empty="No requests match this filter."
              columns={[
                { header: 'Reference', cell: (r) => r.reference },
                { header: 'Sending number', cell: (r) => `${r.phone} (${r.network})` },
                { header: 'Airtime', cell: (r) => money(r.amount) },
                {
                  header: 'Credit',
                  cell: (r) =>
                    r.credited !== null
                      ? `${money(r.credited)}${r.partial ? ` of ${money(r.expectedCredit)}` : ''}`
                      : `${money(r.expectedCredit)} expected`,
                },
                {
                  header: 'Status',
                  cell: (r) => (
                    <Group gap={4}>
                      <StatusBadge status={r.status} />
                      {r.partial && <StatusBadge status="partial" />}
                    </Group>
                  ),
                },
                { header: 'Provider', cell: (r) => `${r.lastProviderStatus ?? 'not asked yet'} (${r.requeryCount})` },
                { header: 'Created', cell: (r) => when(r.createdAt) },
                { header: 'Expires', cell: (r) => when(r.expiresAt) },
                {
                  header: 'Actions',
                  cell: (r) =>
                    r.status === 'awaiting' && can('adminResolveAirtimeCashRequest') ? (
                      <Group gap={4} wrap="nowrap">
                        {can('adminRequeryAirtimeCashRequest') && (
                          <Button
                            size="xs"
                            variant="default"
                            loading={busy === r.id}
                            onClick={() => void requery(r.id, r.reference)}
                            aria-label={`Requery ${r.reference}`}
                          >
                            Requery
                          </Button>
                        )}
                        <Button size="xs" variant="light" color="red" onClick={() => setResolving(r)} aria-label={`Resolve ${r.reference}`}>
                          Resolve
                        </Button>
                      </Group>
                    ) : (
                      (r.failureReason ?? '—')
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
        title={`Resolve ${resolving?.reference ?? ''}`}
        label="How the provider confirmed that nothing arrived"
        confirm="Close with nothing credited"
        color="red"
        min={5}
        onClose={() => setResolving(null)}
        onConfirm={resolve}
      >
        <Text size="sm">
          The request is closed as expired with nothing credited to the customer&apos;s wallet, and the customer is told so.
        </Text>
      </ReasonDialog>
      {stepUp.modal}
    </Stack>
  );
}
