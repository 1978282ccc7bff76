import { Button, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { adminQueries } from '../../api/queries/admin';
import { useScreenSearch } from '../nav';
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
const CHANNELS = [
  { value: '', label: 'Any' },
  { value: 'app', label: 'App and API' },
  { value: 'ussd', label: 'USSD' },
  { value: 'whatsapp', label: 'WhatsApp' },
];
const channelName = (c: string) => CHANNELS.find((x) => x.value === c)?.label ?? c;
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
  const search = useScreenSearch();
  const value = (f: Field) => search.text(`t_${f}`);
  const [draft, setDraft] = useState<Record<Field, string>>(
    () => Object.fromEntries(FIELDS.map((f) => [f, value(f)])) as Record<Field, string>,
  );
  const { sort, column } = useServerSort(SORTS, { key: 't_sort', pageKey: 't_offset' });
  const offset = search.num('t_offset', 0);
  const asked = Object.fromEntries(FIELDS.map((f) => [f, value(f) || undefined]).filter(([, v]) => v !== undefined));
  const q = useQuery(adminQueries.transactions({ ...asked, sort, limit: LIMIT, offset }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    search.set({
      ...Object.fromEntries(FIELDS.map((f) => [`t_${f}`, draft[f].trim() || undefined])),
      t_offset: undefined,
      offset: search.num('offset', 0),
    });
  };
  const set = (f: Field) => (v: string) => setDraft((d) => ({ ...d, [f]: v }));
  return (
    <Stack>
      <Title order={2} size="h3">
        Search purchases
      </Title>
      <form onSubmit={submit} aria-label="Search purchases">
        <Group align="end">
          <TextInput label="Reference" value={draft.reference} onChange={(e) => set('reference')(e.currentTarget.value)} />
          <TextInput label="Phone" value={draft.phone} onChange={(e) => set('phone')(e.currentTarget.value)} />
          <TextInput label="E-mail" type="email" value={draft.email} onChange={(e) => set('email')(e.currentTarget.value)} />
          <Select
            label="Status"
            data={[
              { value: '', label: 'Any' },
              { value: 'processing', label: 'Processing' },
              { value: 'success', label: 'Success' },
              { value: 'failed', label: 'Failed' },
            ]}
            value={draft.status}
            onChange={(v) => set('status')(v ?? '')}
            allowDeselect={false}
            w={140}
          />
          <Select
            label="Service"
            data={['', ...SERVICES].map((s) => ({ value: s, label: s || 'Any' }))}
            value={draft.service}
            onChange={(v) => set('service')(v ?? '')}
            allowDeselect={false}
            w={140}
          />
          <Select
            label="Channel"
            data={CHANNELS}
            value={draft.channel}
            onChange={(v) => set('channel')(v ?? '')}
            allowDeselect={false}
            w={140}
          />
          <TextInput type="date" label="From" value={draft.from} onChange={(e) => set('from')(e.currentTarget.value)} />
          <TextInput type="date" label="To" value={draft.to} onChange={(e) => set('to')(e.currentTarget.value)} />
          <Button type="submit">Search</Button>
        </Group>
      </form>
      {/^vtu_/i.test(value('reference')) && <PurchaseCase reference={value('reference')} />}
      <Loaded query={q}>
        {(data) => (
          <Stack>
            <DataTable
              caption={`Purchases found${data.from ? ` from ${data.from} to ${data.to}` : ''}`}
              rows={data.items}
              rowKey={(t) => t.id}
              empty="No purchase matches."
              columns={[
                { header: 'Reference', cell: (t) => t.reference },
                { header: 'Customer', cell: (t) => t.email ?? t.userId },
                { header: 'Service', cell: (t) => `${t.service} (${t.provider})` },
                { header: 'Recipient', cell: (t) => t.recipient },
                { header: 'Channel', cell: (t) => channelName(t.channel) },
                { header: 'Amount', cell: (t) => money(t.amount), sort: column({ desc: 'amount_desc', asc: 'amount_asc' }) },
                { header: 'Status', cell: (t) => <StatusBadge status={t.status} /> },
                { header: 'Created', cell: (t) => when(t.createdAt), sort: column({ desc: 'newest', asc: 'oldest' }) },
                { header: 'Settled', cell: (t) => when(t.settledAt) },
                ...(p.onRequery || p.onResolve
                  ? [
                      {
                        header: 'Actions',
                        cell: (t: FoundPurchase) => <Actions t={t} busy={p.busy} onRequery={p.onRequery} onResolve={p.onResolve} />,
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
              onChange={(o) => search.set({ t_offset: o, offset: search.num('offset', 0) })}
            />
          </Stack>
        )}
      </Loaded>
    </Stack>
  );
}

/** A found purchase's requery and (while processing) resolve, as far as the operator may. */
function Actions({ t, busy, onRequery, onResolve }: Props & { t: FoundPurchase }) {
  return (
    <Group gap={4} wrap="nowrap">
      {onRequery && (
        <Button
          size="xs"
          variant="default"
          loading={busy === t.id}
          onClick={() => onRequery(t)}
          aria-label={`Requery found purchase ${t.reference}`}
        >
          Requery
        </Button>
      )}
      {onResolve && t.status === 'processing' && (
        <Button size="xs" variant="light" onClick={() => onResolve(t)} aria-label={`Resolve found purchase ${t.reference}`}>
          Resolve
        </Button>
      )}
    </Group>
  );
}
