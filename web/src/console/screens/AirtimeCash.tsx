import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { useSetSearch } from '../nav';
import { useCan } from '../roles';
import { useOperatorStepUp } from '../step-up';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ReasonDialog } from '../../components/ReasonDialog';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import * as api from '../../api/calls';

const LIMIT = 25;
const STATUSES = ['awaiting', 'credited', 'expired', 'failed'] as const;
type Status = (typeof STATUSES)[number];

/** The filter: every request, one status, or the stuck ones (awaiting past their expiry). */
const SHOW = ['all', 'stuck', ...STATUSES] as const;

/**
 * Airtime to cash (issue 32): customers' requests, newest first, filtered by status or stuck. An awaiting request can
 * be requeried (the provider is asked now and its answer applied: only the provider's word credits a wallet), or closed
 * with nothing credited, with a note of how the provider confirmed that nothing arrived (step-up).
 */
export function AirtimeCash() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/airtime-cash' });
  const setSearch = useSetSearch('/console/airtime-cash');
  const offset = search.offset ?? 0;
  const show = search.show ?? '';
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
      const r = await api.adminRequeryAirtimeCashRequest({ id });
      const credited = r.request.credited !== null ? t('console.airtimeCash.credited', { amount: money(r.request.credited) }) : '';
      setNotice(t('console.airtimeCash.answered', { reference, status: r.providerStatus, outcome: r.request.status, credited }));
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
      api.adminResolveAirtimeCashRequest(
        { id: resolving.id, note: note ?? '' },
        { idempotencyKey: key, ...(grantToken ? { grantToken } : {}) },
      ),
    );
    setNotice(t('console.airtimeCash.closed', { reference: resolving.reference, status: r.request.status }));
    await refresh();
  }

  return (
    <Stack>
      <ScreenTitle title={t('console.airtimeCash.title')} />
      {notice && (
        <Alert
          color="blue"
          role="status"
          withCloseButton
          closeButtonLabel={t('console.airtimeCash.dismiss')}
          onClose={() => setNotice(null)}
        >
          {notice}
        </Alert>
      )}
      <Failure error={error} />
      <Text size="sm" c="dimmed">
        {t('console.airtimeCash.intro')}
      </Text>
      <Group align="end">
        <Select
          label={t('console.airtimeCash.show')}
          data={SHOW.map((s) => ({ value: s === 'all' ? '' : s, label: t(`console.airtimeCash.shows.${s}`) }))}
          value={show === 'stuck' || status ? show : ''}
          onChange={(v) => setSearch({ show: (v || undefined) as typeof search.show })}
          allowDeselect={false}
          w={260}
        />
      </Group>
      <Loaded query={list}>
        {(data) => (
          <Stack>
            <DataTable
              caption={t('console.airtimeCash.caption')}
              rows={data.items}
              rowKey={(r) => r.id}
              empty={t('console.airtimeCash.empty')}
              columns={[
                { header: t('console.airtimeCash.reference'), cell: (r) => r.reference },
                { header: t('console.airtimeCash.sending'), cell: (r) => `${r.phone} (${r.network})` },
                { header: t('console.airtimeCash.airtime'), cell: (r) => money(r.amount) },
                {
                  header: t('console.airtimeCash.credit'),
                  cell: (r) =>
                    r.credited === null
                      ? t('console.airtimeCash.expected', { amount: money(r.expectedCredit) })
                      : r.partial
                        ? t('console.airtimeCash.partOf', { credited: money(r.credited), expected: money(r.expectedCredit) })
                        : money(r.credited),
                },
                {
                  header: t('console.airtimeCash.status'),
                  cell: (r) => (
                    <Group gap={4}>
                      <StatusBadge status={r.status} />
                      {r.partial && <StatusBadge status="partial" />}
                    </Group>
                  ),
                },
                {
                  header: t('console.airtimeCash.provider'),
                  cell: (r) => `${r.lastProviderStatus ?? t('console.airtimeCash.notAsked')} (${r.requeryCount})`,
                },
                { header: t('console.airtimeCash.created'), cell: (r) => when(r.createdAt) },
                { header: t('console.airtimeCash.expires'), cell: (r) => when(r.expiresAt) },
                {
                  header: t('console.airtimeCash.actions'),
                  cell: (r) =>
                    r.status === 'awaiting' && can('adminResolveAirtimeCashRequest') ? (
                      <Group gap={4} wrap="nowrap">
                        {can('adminRequeryAirtimeCashRequest') && (
                          <Button
                            size="xs"
                            variant="default"
                            loading={busy === r.id}
                            onClick={() => void requery(r.id, r.reference)}
                            aria-label={t('console.airtimeCash.requeryOne', { reference: r.reference })}
                          >
                            {t('console.airtimeCash.requery')}
                          </Button>
                        )}
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          onClick={() => setResolving(r)}
                          aria-label={t('console.airtimeCash.resolveOne', { reference: r.reference })}
                        >
                          {t('console.airtimeCash.resolve')}
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
              onChange={(o) => setSearch({ offset: o })}
            />
          </Stack>
        )}
      </Loaded>
      <ReasonDialog
        opened={resolving !== null}
        title={t('console.airtimeCash.resolveOne', { reference: resolving?.reference ?? '' })}
        label={t('console.airtimeCash.how')}
        confirm={t('console.airtimeCash.confirm')}
        color="red"
        min={5}
        onClose={() => setResolving(null)}
        onConfirm={resolve}
      >
        <Text size="sm">{t('console.airtimeCash.explain')}</Text>
      </ReasonDialog>
      {stepUp.modal}
    </Stack>
  );
}
