import { Button, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { adminQueries } from '../../api/queries/admin';
import { useSetSearch } from '../nav';
import { ReferenceLink } from '../references';
import { PurchaseCase } from '../cases/PurchaseCase';
import { useServerSort } from '../sort';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { StatusBadge } from '../../components/StatusBadge';

const LIMIT = 25;
/** The services to filter by: every kind's folder (its name), found by its names.ts, so a kind added later is listed. */
const SERVICES = Object.keys(
  import.meta.glob('./*/names.ts', { base: '../../../../src/modules/vtu/kinds', eager: true, import: 'names' }),
).map((path) => path.split('/')[1]);
const SORTS = ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const;
const FIELDS = ['reference', 'phone', 'email', 'status', 'service', 'channel', 'from', 'to'] as const;
/** Where a purchase was made (issue 46). */
const CHANNELS = ['app', 'ussd', 'whatsapp'] as const;
const channelName = (t: TFunction, c: string) =>
  CHANNELS.includes(c as never) ? t(`console.transactionSearch.channels.${c as (typeof CHANNELS)[number]}`) : c;
type Field = (typeof FIELDS)[number];
export interface FoundPurchase {
  id: string;
  reference: string;
  status: string;
}

/**
 * Purchase search (adminSearchTransactions): reference, phone, e-mail, status, service, channel and Lagos days; the service
 * sorts (newest, oldest, by amount) and pages. Filters live in the address (`t_` keys) so a link shows the same.
 * A processing purchase found here gets the stuck list's actions.
 */
interface Props {
  busy: string | null;
  /** Absent for an operator who may not requery (or resolve): no button then. */
  onRequery?: (t: FoundPurchase) => void;
  onResolve?: (t: FoundPurchase) => void;
}

export function TransactionSearch(p: Props) {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/transactions' });
  const setSearch = useSetSearch('/console/transactions');
  const value = (f: Field) => search[`t_${f}` as const] ?? '';
  const [draft, setDraft] = useState<Record<Field, string>>(
    () => Object.fromEntries(FIELDS.map((f) => [f, value(f)])) as Record<Field, string>,
  );
  const { sort, column } = useServerSort('/console/transactions', SORTS, { key: 't_sort', pageKey: 't_offset' });
  const offset = search.t_offset ?? 0;
  const asked = Object.fromEntries(FIELDS.map((f) => [f, value(f) || undefined]).filter(([, v]) => v !== undefined));
  const q = useQuery(adminQueries.transactions({ ...asked, sort, limit: LIMIT, offset }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSearch({
      ...Object.fromEntries(FIELDS.map((f) => [`t_${f}`, draft[f].trim() || undefined])),
      t_offset: undefined,
      offset: search.offset ?? 0,
    });
  };
  const set = (f: Field) => (v: string) => setDraft((d) => ({ ...d, [f]: v }));
  return (
    <Stack>
      <Title order={2} size="h3">
        {t('console.transactionSearch.title')}
      </Title>
      <form noValidate onSubmit={submit} aria-label={t('console.transactionSearch.title')}>
        <Group align="end">
          <TextInput
            label={t('console.transactionSearch.reference')}
            value={draft.reference}
            onChange={(e) => set('reference')(e.currentTarget.value)}
          />
          <TextInput
            label={t('console.transactionSearch.phone')}
            value={draft.phone}
            onChange={(e) => set('phone')(e.currentTarget.value)}
          />
          <TextInput
            label={t('console.transactionSearch.email')}
            type="email"
            value={draft.email}
            onChange={(e) => set('email')(e.currentTarget.value)}
          />
          <Select
            label={t('console.transactionSearch.status')}
            data={[
              { value: '', label: t('console.transactionSearch.any') },
              { value: 'processing', label: t('console.transactionSearch.statuses.processing') },
              { value: 'success', label: t('console.transactionSearch.statuses.success') },
              { value: 'failed', label: t('console.transactionSearch.statuses.failed') },
            ]}
            value={draft.status}
            onChange={(v) => set('status')(v ?? '')}
            allowDeselect={false}
            w={140}
          />
          <Select
            label={t('console.transactionSearch.service')}
            data={['', ...SERVICES].map((s) => ({ value: s, label: s || t('console.transactionSearch.any') }))}
            value={draft.service}
            onChange={(v) => set('service')(v ?? '')}
            allowDeselect={false}
            w={140}
          />
          <Select
            label={t('console.transactionSearch.channel')}
            data={[
              { value: '', label: t('console.transactionSearch.any') },
              ...CHANNELS.map((c) => ({ value: c, label: channelName(t, c) })),
            ]}
            value={draft.channel}
            onChange={(v) => set('channel')(v ?? '')}
            allowDeselect={false}
            w={140}
          />
          <TextInput
            type="date"
            label={t('console.transactionSearch.from')}
            value={draft.from}
            onChange={(e) => set('from')(e.currentTarget.value)}
          />
          <TextInput
            type="date"
            label={t('console.transactionSearch.to')}
            value={draft.to}
            onChange={(e) => set('to')(e.currentTarget.value)}
          />
          <Button type="submit">{t('console.transactionSearch.search')}</Button>
        </Group>
      </form>
      {/^vtu_/i.test(value('reference')) && <PurchaseCase reference={value('reference')} />}
      <Loaded query={q}>
        {(data) => (
          <Stack>
            <DataTable
              caption={
                data.from
                  ? t('console.transactionSearch.captionDays', { from: data.from, to: data.to })
                  : t('console.transactionSearch.caption')
              }
              rows={data.items}
              rowKey={(t) => t.id}
              empty={t('console.transactionSearch.empty')}
              columns={[
                {
                  header: t('console.transactionSearch.reference'),
                  // A link to the purchase's page (the search filtered to it), except on that page itself.
                  cell: (x) => (search.t_reference === x.reference ? x.reference : <ReferenceLink reference={x.reference} />),
                },
                { header: t('console.transactionSearch.customer'), cell: (t) => t.email ?? t.userId },
                { header: t('console.transactionSearch.service'), cell: (t) => `${t.service} (${t.provider})` },
                { header: t('console.transactionSearch.recipient'), cell: (t) => t.recipient },
                { header: t('console.transactionSearch.channel'), cell: (x) => channelName(t, x.channel) },
                {
                  header: t('console.transactionSearch.amount'),
                  cell: (t) => money(t.amount),
                  sort: column({ desc: 'amount_desc', asc: 'amount_asc' }),
                },
                { header: t('console.transactionSearch.status'), cell: (t) => <StatusBadge status={t.status} /> },
                {
                  header: t('console.transactionSearch.created'),
                  cell: (t) => when(t.createdAt),
                  sort: column({ desc: 'newest', asc: 'oldest' }),
                },
                { header: t('console.transactionSearch.settled'), cell: (t) => when(t.settledAt) },
                ...(p.onRequery || p.onResolve
                  ? [
                      {
                        header: t('console.transactionSearch.actions'),
                        cell: (x: FoundPurchase) => <Actions t={x} busy={p.busy} onRequery={p.onRequery} onResolve={p.onResolve} />,
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
              onChange={(o) => setSearch({ t_offset: o, offset: search.offset ?? 0 })}
            />
          </Stack>
        )}
      </Loaded>
    </Stack>
  );
}

/** A found purchase's requery and (while processing) resolve, as far as the operator may. */
function Actions({ t, busy, onRequery, onResolve }: Props & { t: FoundPurchase }) {
  const { t: tr } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap">
      {onRequery && (
        <Button
          size="xs"
          variant="default"
          loading={busy === t.id}
          onClick={() => onRequery(t)}
          aria-label={tr('console.transactionSearch.requeryOne', { reference: t.reference })}
        >
          {tr('console.transactionSearch.requery')}
        </Button>
      )}
      {onResolve && t.status === 'processing' && (
        <Button
          size="xs"
          variant="light"
          onClick={() => onResolve(t)}
          aria-label={tr('console.transactionSearch.resolveOne', { reference: t.reference })}
        >
          {tr('console.transactionSearch.resolve')}
        </Button>
      )}
    </Group>
  );
}
