import { Alert, Badge, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import type { GetOutput } from '../../api/client';
import { consoleQueries } from '../../api/queries/admin';
import { ConsoleLink, useScreenSearch, type Search } from '../nav';
import { mayCall, useOperatorRoles, type AdminOperation } from '../roles';
import { DataTable } from '../../components/DataTable';
import { Loaded, Loading } from '../../components/Loaded';
import { money } from '../../app/format';
import { ScreenTitle } from '../../components/ScreenTitle';
import { CHANNEL_NAMES, ChannelSwitches } from './ChannelSwitches';
import * as ops from '../../api/operations';

const BarPanel = lazy(() => import('./Charts').then((m) => ({ default: m.BarPanel })));

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos' }).format(new Date());
const age = (s: number | null) =>
  s === null ? 'none' : s < 120 ? `${Math.round(s)} s` : s < 7200 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;
/** A float at or below zero is a problem now, not a number of days. */
const daysLeft = (balance: number, days: number | null) =>
  balance <= 0 ? (
    <Badge variant="light" color="red">
      Empty
    </Badge>
  ) : days === null ? (
    '—'
  ) : (
    Math.floor(days)
  );
const pct = (r: number | null) => (r === null ? '—' : `${Math.round(r * 1000) / 10}%`);

type Queues = GetOutput<typeof ops.adminDashboardQueues>;
/** A tile shows for an operator who may call `op`, the read of the list it opens (the generated role table). */
type Tile = { key?: string; to: string; search?: Search; op: AdminOperation; value: number; label: string; sub: string };

/**
 * What waits, one tile each, for the screens the operator's roles open (issue 44): each opens the exact list (the
 * pending approvals, the open threads, the open reports, the stuck purchases themselves).
 */
export function waitingTiles(q: Queues, roles: readonly string[]): Tile[] {
  const tiles: Tile[] = [
    {
      to: 'kyc',
      op: 'adminListKycSubmissions',
      value: q.kyc.pending,
      label: 'KYC submissions',
      sub: `oldest ${age(q.kyc.oldestAgeSeconds)}`,
    },
    {
      to: 'approvals',
      search: { status: 'pending' },
      op: 'adminListApprovals',
      value: q.approvals.pending,
      label: 'Approvals waiting',
      sub: `oldest ${age(q.approvals.oldestAgeSeconds)}`,
    },
    {
      to: 'transactions',
      search: { view: 'stuck' },
      op: 'adminListStuckVtuTransactions',
      value: q.stuckPurchases.count,
      label: 'Stuck purchases',
      sub: `oldest ${age(q.stuckPurchases.oldestAgeSeconds)}`,
    },
    {
      to: 'support',
      search: { status: 'open', awaiting: 'false' },
      op: 'adminListSupportThreads',
      value: q.support.open,
      label: 'Open support threads',
      sub: `${q.support.awaitingReply} awaiting a reply, oldest ${age(q.support.oldestAwaitingSeconds)}`,
    },
    {
      to: 'reports',
      search: { tab: 'transactions', status: 'open' },
      op: 'adminListTransactionReports',
      value: q.reports.open,
      label: 'Open transaction reports',
      sub: `oldest ${age(q.reports.oldestAgeSeconds)}`,
    },
    {
      key: 'topups-pending',
      to: 'topups',
      search: { kind: 'intents', status: 'pending', sort: 'oldest' },
      op: 'adminSearchPayments',
      value: q.topups.pending,
      label: 'Top-ups not confirmed',
      sub: `pending over ${age(q.topups.pendingAfterSeconds)}, oldest ${age(q.topups.oldestPendingSeconds)}: verify them`,
    },
    {
      key: 'topups-amount',
      to: 'topups',
      search: { kind: 'intents', status: 'success', paid: 'different' },
      op: 'adminSearchPayments',
      value: q.topups.underpaid + q.topups.overpaid,
      label: 'Top-ups paid a different amount',
      sub: `${q.topups.underpaid} underpaid, ${q.topups.overpaid} overpaid (7 days)`,
    },
    {
      key: 'withdrawals-stuck',
      to: 'withdrawals',
      search: { show: 'stuck' },
      op: 'adminListWithdrawals',
      value: q.withdrawals.stuck,
      label: 'Stuck withdrawals',
      sub: `pending over ${age(q.withdrawals.stuckAfterSeconds)}, oldest ${age(q.withdrawals.oldestStuckSeconds)}: requery them`,
    },
    {
      key: 'floats',
      to: 'catalogue',
      op: 'adminListProviderFloats',
      value: q.floats.empty.length,
      label: 'Providers at a ₦0 float',
      sub: q.floats.poolBelowZero
        ? 'collections pool below zero'
        : q.floats.empty.length
          ? `provider ${q.floats.empty.map((p) => p.toUpperCase()).join(', ')}`
          : 'every float funded',
    },
    {
      to: 'topups',
      search: { kind: 'events', status: 'received' },
      op: 'adminSearchPayments',
      value: q.webhooks.waiting,
      label: 'Webhooks waiting',
      sub: `lag max ${age(q.webhooks.lagSeconds.max)}`,
    },
    { to: 'exports', op: 'adminListJobs', value: q.jobs.due, label: 'Jobs due', sub: `lag ${age(q.jobs.lagSeconds)}` },
    { to: 'dead-letters', op: 'adminListDeadLetters', value: q.deadLetters.total, label: 'Dead letters', sub: 'failed deliveries' },
  ];
  return tiles.filter((t) => mayCall(roles, t.op));
}

function Waiting({ queues }: { queues: Queues }) {
  const roles = useOperatorRoles();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }}>
      {waitingTiles(queues, roles).map((t) => (
        <Card key={t.key ?? t.to} withBorder component={ConsoleLink} to={t.to} search={t.search} padding="sm">
          <Text size="xl" fw={700}>
            {t.value}
          </Text>
          <Text size="sm">{t.label}</Text>
          <Text size="xs" c="dimmed">
            {t.sub}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/**
 * The day at a glance (one service call per panel): what waits for an operator, volume by service, provider and
 * status, provider success and latency, floats and their days of headroom. A range of Lagos days, today by default.
 */
export function Dashboard() {
  const search = useScreenSearch();
  const from = search.text('from') || today();
  const to = search.text('to') || from;
  const range = { from, to };
  const queues = useQuery(consoleQueries.queues());
  const volume = useQuery(consoleQueries.volume(range));
  const providers = useQuery(consoleQueries.providers(range));
  const floats = useQuery(consoleQueries.floats());
  return (
    <Stack>
      <ScreenTitle title="Dashboard">
        <TextInput
          type="date"
          label="From"
          value={from}
          max={to}
          onChange={(e) => search.set({ from: e.currentTarget.value || undefined })}
        />
        <TextInput type="date" label="To" value={to} min={from} onChange={(e) => search.set({ to: e.currentTarget.value || undefined })} />
      </ScreenTitle>
      <Panel id="d-queues" title="Waiting for an operator">
        <Loaded query={queues}>{(q) => <Waiting queues={q} />}</Loaded>
      </Panel>
      <Panel id="d-volume" title="Purchases">
        <Loaded query={volume}>
          {(v) => (
            <Stack>
              <Text>
                {v.total.count} purchases, {money(v.total.volume)}
              </Text>
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <Suspense fallback={<Loading label="Loading chart" />}>
                  <BarPanel data={v.byService} x="service" y="volume" format={money} />
                </Suspense>
                <DataTable
                  caption="By service"
                  rows={v.byService}
                  rowKey={(r) => r.service}
                  empty="No purchases in this range."
                  columns={[
                    { header: 'Service', cell: (r) => r.service },
                    { header: 'Count', cell: (r) => r.count },
                    { header: 'Volume', cell: (r) => money(r.volume) },
                  ]}
                />
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <DataTable
                  caption="By provider"
                  rows={v.byProvider}
                  rowKey={(r) => r.provider}
                  columns={[
                    { header: 'Provider', cell: (r) => r.provider },
                    { header: 'Count', cell: (r) => r.count },
                    { header: 'Volume', cell: (r) => money(r.volume) },
                  ]}
                />
                <DataTable
                  caption="By status"
                  rows={v.byStatus}
                  rowKey={(r) => r.status}
                  columns={[
                    { header: 'Status', cell: (r) => r.status },
                    { header: 'Count', cell: (r) => r.count },
                    { header: 'Volume', cell: (r) => money(r.volume) },
                  ]}
                />
                <DataTable
                  caption="By channel"
                  rows={v.byChannel}
                  rowKey={(r) => r.channel}
                  columns={[
                    { header: 'Channel', cell: (r) => CHANNEL_NAMES[r.channel] ?? r.channel },
                    { header: 'Count', cell: (r) => r.count },
                    { header: 'Volume', cell: (r) => money(r.volume) },
                  ]}
                />
                <ChannelSwitches />
              </SimpleGrid>
            </Stack>
          )}
        </Loaded>
      </Panel>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Panel id="d-providers" title="Providers">
          <Loaded query={providers}>
            {(p) => (
              <Stack>
                <Suspense fallback={<Loading label="Loading chart" />}>
                  <BarPanel
                    data={p.items.map((i) => ({
                      provider: i.provider,
                      success: i.successRate === null ? 0 : Math.round(i.successRate * 100),
                    }))}
                    x="provider"
                    y="success"
                    format={(n) => `${n}%`}
                  />
                </Suspense>
                <DataTable
                  caption="Success rate and latency per provider"
                  rows={p.items}
                  rowKey={(i) => i.provider}
                  empty="No purchases in this range."
                  columns={[
                    { header: 'Provider', cell: (i) => i.provider },
                    { header: 'Success', cell: (i) => pct(i.successRate) },
                    { header: 'Done / failed / open', cell: (i) => `${i.succeeded} / ${i.failed} / ${i.processing}` },
                    { header: 'p50', cell: (i) => age(i.latencySeconds.p50) },
                    { header: 'p95', cell: (i) => age(i.latencySeconds.p95) },
                  ]}
                />
              </Stack>
            )}
          </Loaded>
        </Panel>
        <Panel id="d-floats" title="Floats">
          <Loaded query={floats}>
            {(f) => (
              <Stack>
                <DataTable
                  caption={`Balances, burn per day over ${f.burnDays} days and days of headroom`}
                  rows={f.items}
                  rowKey={(i) => i.provider}
                  columns={[
                    { header: 'Provider', cell: (i) => i.provider },
                    { header: 'Balance', cell: (i) => money(i.balance) },
                    { header: 'Burn per day', cell: (i) => money(i.burnPerDay) },
                    { header: 'Days left', cell: (i) => daysLeft(i.balance, i.daysOfHeadroom) },
                  ]}
                />
                {f.collections.balance < 0 ? (
                  // A pool below zero has no headroom to show: the floats were funded with money it does not hold.
                  <Alert color="red" variant="light" title="Collections pool below zero">
                    The pool is at {money(f.collections.balance)}: top-ups have not covered the floats funded from it.
                  </Alert>
                ) : (
                  <Group gap="xs">
                    <Text size="sm">
                      Collections pool: {money(f.collections.balance)}
                      {f.collections.daysOfHeadroom !== null && `, ${Math.floor(f.collections.daysOfHeadroom)} days of headroom`}
                    </Text>
                  </Group>
                )}
              </Stack>
            )}
          </Loaded>
        </Panel>
      </SimpleGrid>
    </Stack>
  );
}
