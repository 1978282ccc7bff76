import { Alert, Badge, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import i18next from 'i18next';
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { GetOutput } from '../../api/client';
import { consoleQueries } from '../../api/queries/admin';
import { ConsoleLink, useSetSearch, type ConsoleTarget } from '../nav';
import { mayCall, useOperatorRoles, type AdminOperation } from '../roles';
import { DataTable } from '../../components/DataTable';
import { Loaded, Loading } from '../../components/Loaded';
import { money } from '../../app/format';
import { ScreenTitle } from '../../components/ScreenTitle';
import { channelName, ChannelSwitches } from './ChannelSwitches';
import * as ops from '../../api/operations';

const BarPanel = lazy(() => import('./Charts').then((m) => ({ default: m.BarPanel })));

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos' }).format(new Date());
const age = (s: number | null) =>
  s === null
    ? i18next.t('console.dashboard.none')
    : s < 120
      ? i18next.t('console.dashboard.seconds', { n: Math.round(s) })
      : s < 7200
        ? i18next.t('console.dashboard.minutes', { n: Math.round(s / 60) })
        : i18next.t('console.dashboard.hours', { n: Math.round(s / 3600) });
const oldest = (s: number | null) => i18next.t('console.dashboard.oldest', { age: age(s) });
/** A float at or below zero is a problem now, not a number of days. */
const daysLeft = (balance: number, days: number | null) =>
  balance <= 0 ? (
    <Badge variant="light" color="red">
      {i18next.t('console.dashboard.empty')}
    </Badge>
  ) : days === null ? (
    '—'
  ) : (
    Math.floor(days)
  );
const pct = (r: number | null) => (r === null ? '—' : `${Math.round(r * 1000) / 10}%`);

type Queues = GetOutput<typeof ops.adminDashboardQueues>;

/** Which floats are low and whether the pool is, and how long the oldest has been low (as far as the alerts kept). */
function floatsSub(f: Queues['floats']) {
  const t = i18next.t;
  const what = [
    ...(f.poolLow ? [t('console.dashboard.poolLow', { below: money(f.poolBelow) })] : []),
    ...(f.low.length ? [t('console.dashboard.providersLow', { providers: f.low.map((p) => p.toUpperCase()).join(', ') })] : []),
  ];
  if (!what.length) return t('console.dashboard.floatsFunded');
  return f.lowForSeconds === null ? what.join('; ') : t('console.dashboard.lowFor', { what: what.join('; '), age: age(f.lowForSeconds) });
}
/** A tile shows for an operator who may call `op`, the read of the list it opens (the generated role table). */
type Tile = { key?: string; link: ConsoleTarget; op: AdminOperation; value: number; label: string; sub: string };

/**
 * What waits, one tile each, for the screens the operator's roles open (issue 44): each opens the exact list (the
 * pending approvals, the open threads, the open reports, the stuck purchases themselves).
 */
export function waitingTiles(q: Queues, roles: readonly string[]): Tile[] {
  const t = i18next.t;
  const tiles: Tile[] = [
    {
      link: { to: '/console/kyc' },
      op: 'adminListKycSubmissions',
      value: q.kyc.pending,
      label: t('console.dashboard.kyc'),
      sub: oldest(q.kyc.oldestAgeSeconds),
    },
    {
      link: { to: '/console/approvals', search: { status: 'pending' } },
      op: 'adminListApprovals',
      value: q.approvals.pending,
      label: t('console.dashboard.approvals'),
      sub: oldest(q.approvals.oldestAgeSeconds),
    },
    {
      link: { to: '/console/transactions', search: { view: 'stuck' } },
      op: 'adminListStuckVtuTransactions',
      value: q.stuckPurchases.count,
      label: t('console.dashboard.stuckPurchases'),
      // The age it counts from (VTU_STUCK_AFTER_MS), as the top-up and withdrawal tiles say theirs.
      sub: t('console.dashboard.stuckSub', { after: age(q.stuckPurchases.stuckAfterSeconds), age: age(q.stuckPurchases.oldestAgeSeconds) }),
    },
    {
      link: { to: '/console/support', search: { status: 'open', awaiting: 'false' } },
      op: 'adminListSupportThreads',
      value: q.support.open,
      label: t('console.dashboard.support'),
      sub: t('console.dashboard.supportSub', { awaiting: q.support.awaitingReply, age: age(q.support.oldestAwaitingSeconds) }),
    },
    {
      link: { to: '/console/reports', search: { tab: 'transactions', status: 'open' } },
      op: 'adminListTransactionReports',
      value: q.reports.open,
      label: t('console.dashboard.reports'),
      sub: oldest(q.reports.oldestAgeSeconds),
    },
    {
      key: 'topups-pending',
      link: { to: '/console/topups', search: { kind: 'intents', status: 'pending', sort: 'oldest' } },
      op: 'adminSearchPayments',
      value: q.topups.pending,
      label: t('console.dashboard.topupsPending'),
      sub: t('console.dashboard.topupsPendingSub', { after: age(q.topups.pendingAfterSeconds), age: age(q.topups.oldestPendingSeconds) }),
    },
    {
      key: 'topups-amount',
      link: { to: '/console/topups', search: { kind: 'intents', status: 'success', paid: 'different' } },
      op: 'adminSearchPayments',
      value: q.topups.underpaid + q.topups.overpaid,
      label: t('console.dashboard.topupsAmount'),
      sub: t('console.dashboard.topupsAmountSub', { underpaid: q.topups.underpaid, overpaid: q.topups.overpaid }),
    },
    {
      key: 'withdrawals-stuck',
      link: { to: '/console/withdrawals', search: { show: 'stuck' } },
      op: 'adminListWithdrawals',
      value: q.withdrawals.stuck,
      label: t('console.dashboard.withdrawals'),
      sub: t('console.dashboard.withdrawalsSub', {
        after: age(q.withdrawals.stuckAfterSeconds),
        age: age(q.withdrawals.oldestStuckSeconds),
      }),
    },
    {
      // The floats and the pool below the alerts' thresholds (one rule in the service), on Catalogue's floats section.
      key: 'floats',
      link: { to: '/console/catalogue', search: { section: 'floats' } },
      op: 'adminListProviderFloats',
      value: q.floats.low.length + (q.floats.poolLow ? 1 : 0),
      label: t('console.dashboard.floats', { below: money(q.floats.floatBelow) }),
      sub: floatsSub(q.floats),
    },
    {
      link: { to: '/console/topups', search: { kind: 'events', status: 'received' } },
      op: 'adminSearchPayments',
      value: q.webhooks.waiting,
      label: t('console.dashboard.webhooks'),
      sub: t('console.dashboard.webhooksSub', { age: age(q.webhooks.lagSeconds.max) }),
    },
    {
      link: { to: '/console/exports' },
      op: 'adminListJobs',
      value: q.jobs.due,
      label: t('console.dashboard.jobs'),
      sub: t('console.dashboard.jobsSub', { age: age(q.jobs.lagSeconds) }),
    },
    {
      link: { to: '/console/dead-letters', search: { sort: 'oldest' } },
      op: 'adminListDeadLetters',
      value: q.deadLetters.total,
      label: t('console.dashboard.deadLetters'),
      sub: t('console.dashboard.deadLettersSub', { age: age(q.deadLetters.oldestAgeSeconds) }),
    },
  ];
  return tiles.filter((tile) => mayCall(roles, tile.op));
}

function Waiting({ queues }: { queues: Queues }) {
  const roles = useOperatorRoles();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }}>
      {waitingTiles(queues, roles).map((tile) => (
        <Card key={tile.key ?? tile.link.to} withBorder component={ConsoleLink} link={tile.link} padding="sm">
          <Text size="xl" fw={700}>
            {tile.value}
          </Text>
          <Text size="sm">{tile.label}</Text>
          <Text size="xs" c="dimmed">
            {tile.sub}
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
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/' });
  const setSearch = useSetSearch('/console/');
  const from = (search.from ?? '') || today();
  const to = (search.to ?? '') || from;
  const range = { from, to };
  const queues = useQuery(consoleQueries.queues());
  const volume = useQuery(consoleQueries.volume(range));
  const providers = useQuery(consoleQueries.providers(range));
  const floats = useQuery(consoleQueries.floats());
  return (
    <Stack>
      <ScreenTitle title={t('console.dashboard.title')}>
        <TextInput
          type="date"
          label={t('console.dashboard.from')}
          value={from}
          max={to}
          onChange={(e) => setSearch({ from: e.currentTarget.value || undefined })}
        />
        <TextInput
          type="date"
          label={t('console.dashboard.to')}
          value={to}
          min={from}
          onChange={(e) => setSearch({ to: e.currentTarget.value || undefined })}
        />
      </ScreenTitle>
      <Panel id="d-queues" title={t('console.dashboard.waiting')}>
        <Loaded query={queues}>{(q) => <Waiting queues={q} />}</Loaded>
      </Panel>
      <Panel id="d-volume" title={t('console.dashboard.purchases')}>
        <Loaded query={volume}>
          {(v) => (
            <Stack>
              <Text>{t('console.dashboard.purchasesTotal', { count: v.total.count, volume: money(v.total.volume) })}</Text>
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <Suspense fallback={<Loading label={t('console.dashboard.loadingChart')} />}>
                  <BarPanel data={v.byService} x="service" y="volume" format={money} />
                </Suspense>
                <DataTable
                  caption={t('console.dashboard.byService')}
                  rows={v.byService}
                  rowKey={(r) => r.service}
                  empty={t('console.dashboard.noPurchases')}
                  columns={[
                    { header: t('console.dashboard.service'), cell: (r) => r.service },
                    { header: t('console.dashboard.count'), cell: (r) => r.count },
                    { header: t('console.dashboard.volume'), cell: (r) => money(r.volume) },
                  ]}
                />
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <DataTable
                  caption={t('console.dashboard.byProvider')}
                  rows={v.byProvider}
                  rowKey={(r) => r.provider}
                  columns={[
                    { header: t('console.dashboard.provider'), cell: (r) => r.provider },
                    { header: t('console.dashboard.count'), cell: (r) => r.count },
                    { header: t('console.dashboard.volume'), cell: (r) => money(r.volume) },
                  ]}
                />
                <DataTable
                  caption={t('console.dashboard.byStatus')}
                  rows={v.byStatus}
                  rowKey={(r) => r.status}
                  columns={[
                    { header: t('console.dashboard.status'), cell: (r) => r.status },
                    { header: t('console.dashboard.count'), cell: (r) => r.count },
                    { header: t('console.dashboard.volume'), cell: (r) => money(r.volume) },
                  ]}
                />
                <DataTable
                  caption={t('console.dashboard.byChannel')}
                  rows={v.byChannel}
                  rowKey={(r) => r.channel}
                  columns={[
                    { header: t('console.dashboard.channel'), cell: (r) => channelName(r.channel) },
                    { header: t('console.dashboard.count'), cell: (r) => r.count },
                    { header: t('console.dashboard.volume'), cell: (r) => money(r.volume) },
                  ]}
                />
                <ChannelSwitches />
              </SimpleGrid>
            </Stack>
          )}
        </Loaded>
      </Panel>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Panel id="d-providers" title={t('console.dashboard.providers')}>
          <Loaded query={providers}>
            {(p) => (
              <Stack>
                <Suspense fallback={<Loading label={t('console.dashboard.loadingChart')} />}>
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
                  caption={t('console.dashboard.successCaption')}
                  rows={p.items}
                  rowKey={(i) => i.provider}
                  empty={t('console.dashboard.noPurchases')}
                  columns={[
                    { header: t('console.dashboard.provider'), cell: (i) => i.provider },
                    { header: t('console.dashboard.success'), cell: (i) => pct(i.successRate) },
                    { header: t('console.dashboard.outcomes'), cell: (i) => `${i.succeeded} / ${i.failed} / ${i.processing}` },
                    { header: 'p50', cell: (i) => age(i.latencySeconds.p50) },
                    { header: 'p95', cell: (i) => age(i.latencySeconds.p95) },
                  ]}
                />
              </Stack>
            )}
          </Loaded>
        </Panel>
        <Panel id="d-floats" title={t('console.dashboard.floatsTitle')}>
          <Loaded query={floats}>
            {(f) => (
              <Stack>
                <DataTable
                  caption={t('console.dashboard.floatsCaption', { days: f.burnDays })}
                  rows={f.items}
                  rowKey={(i) => i.provider}
                  columns={[
                    { header: t('console.dashboard.provider'), cell: (i) => i.provider },
                    { header: t('console.dashboard.balance'), cell: (i) => money(i.balance) },
                    { header: t('console.dashboard.burn'), cell: (i) => money(i.burnPerDay) },
                    { header: t('console.dashboard.daysLeft'), cell: (i) => daysLeft(i.balance, i.daysOfHeadroom) },
                  ]}
                />
                {f.collections.balance < 0 ? (
                  // A pool below zero has no headroom to show: the floats were funded with money it does not hold.
                  <Alert color="red" variant="light" title={t('console.dashboard.poolBelowZeroTitle')}>
                    {t('console.dashboard.poolBelowZeroBody', { balance: money(f.collections.balance) })}
                  </Alert>
                ) : (
                  <Group gap="xs">
                    <Text size="sm">
                      {t('console.dashboard.pool', { balance: money(f.collections.balance) })}
                      {f.collections.daysOfHeadroom !== null &&
                        t('console.dashboard.poolHeadroom', { days: Math.floor(f.collections.daysOfHeadroom) })}
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
