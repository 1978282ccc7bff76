import { Alert, Button, Group, NativeSelect, SegmentedControl, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../app/errors';
import { formatDateTime, formatNaira } from '../../app/format';
import { useKindLabel } from '../../app/kind-tabs';
import { ActivityList } from '../../components/ActivityList';
import { historyQueries, type HistoryFilter } from '../../api/queries/history';
import { vtuQueries, type TransactionFilter } from '../../api/queries/vtu';
import { HistoryFilters, rangeProblem, StatementDownload } from './HistoryFilter';
import { StatusBadge } from '../../components/StatusBadge';

const PAGE = 20;

/**
 * Every money movement: the wallet's ledger lines (filter in/out) and purchases (filter by status and service), both
 * within the chosen dates and search and loaded page by page as you scroll; the statement for the chosen dates.
 */
export function Transactions() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'wallet' | 'purchases'>('wallet');
  const [typed, setTyped] = useState<HistoryFilter>({});
  const [debounced] = useDebouncedValue(typed, 300);
  // A range the service would refuse is not asked for: the field says what is wrong.
  const filter = rangeProblem(debounced.from, debounced.to) ? { q: debounced.q } : debounced;
  return (
    <Stack maw={720}>
      <Title order={1}>{t('tx.title')}</Title>
      <HistoryFilters value={typed} onChange={setTyped} />
      <SegmentedControl
        fullWidth
        aria-label={t('tx.filter')}
        value={tab}
        onChange={(v) => setTab(v as typeof tab)}
        data={[
          { value: 'wallet', label: t('home.balance') },
          { value: 'purchases', label: t('tx.purchases') },
        ]}
      />
      {tab === 'wallet' ? <WalletLines filter={filter} /> : <Purchases filter={filter} />}
      <StatementDownload from={typed.from} to={typed.to} />
    </Stack>
  );
}

/** Infinite scroll: the next page loads when this button scrolls into view (or is pressed). */
function MoreButton({ list }: { list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown } }) {
  const { t } = useTranslation();
  if (!list.hasNextPage) return null;
  return (
    <Button
      variant="light"
      loading={list.isFetchingNextPage}
      onClick={() => void list.fetchNextPage()}
      ref={(el) => {
        if (!el) return;
        const io = new IntersectionObserver(([e]) => e.isIntersecting && void list.fetchNextPage());
        io.observe(el);
        return () => io.disconnect();
      }}
    >
      {t('tx.more')}
    </Button>
  );
}

function WalletLines({ filter }: { filter: HistoryFilter }) {
  const { t } = useTranslation();
  const [dir, setDir] = useState<'all' | 'in' | 'out'>('all');
  const wallet = useInfiniteQuery(historyQueries.activity(filter, PAGE));
  const items = wallet.data?.pages.flatMap((p) => p.items).filter((l) => dir === 'all' || (dir === 'in' ? l.amount > 0 : l.amount < 0));
  return (
    <Stack>
      <NativeSelect
        label={t('tx.filter')}
        value={dir}
        onChange={(e) => setDir(e.currentTarget.value as typeof dir)}
        data={[
          { value: 'all', label: t('tx.all') },
          { value: 'in', label: t('tx.credits') },
          { value: 'out', label: t('tx.debits') },
        ]}
      />
      {wallet.error && (
        <Alert color="red" role="alert">
          {errorMessage(wallet.error)}
        </Alert>
      )}
      {items && items.length === 0 ? <Text c="dimmed">{t('tx.none')}</Text> : <ActivityList items={items} />}
      <MoreButton list={wallet} />
    </Stack>
  );
}

function Purchases({ filter }: { filter: HistoryFilter }) {
  const { t } = useTranslation();
  const kind = useKindLabel();
  const navigate = useNavigate();
  const [status, setStatus] = useState('');
  const [service, setService] = useState('');
  const list = useInfiniteQuery(vtuQueries.transactions({ status, service, ...filter } as TransactionFilter, PAGE));
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Stack>
      <Group grow>
        <NativeSelect
          label={t('tx.status')}
          value={status}
          onChange={(e) => setStatus(e.currentTarget.value)}
          data={[
            { value: '', label: t('tx.all') },
            { value: 'success', label: t('result.success') },
            { value: 'processing', label: t('result.processing') },
            { value: 'failed', label: t('result.failed') },
          ]}
        />
        <NativeSelect
          label={t('tx.type')}
          value={service}
          onChange={(e) => setService(e.currentTarget.value)}
          data={[
            { value: '', label: t('tx.all') },
            { value: 'airtime', label: kind('airtime') },
            { value: 'data', label: kind('data') },
          ]}
        />
      </Group>
      {list.error && (
        <Alert color="red" role="alert">
          {errorMessage(list.error)}
        </Alert>
      )}
      {list.isSuccess && items.length === 0 && <Text c="dimmed">{t('tx.none')}</Text>}
      <Stack gap={0} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {items.map((x) => (
          <li key={x.id}>
            <UnstyledButton
              w="100%"
              py="xs"
              onClick={() => void navigate({ to: '/buy/result/$id', params: { id: x.id } })}
              style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
            >
              <Group justify="space-between" gap="xs">
                <div style={{ flex: '1 1 10rem', minWidth: 0, overflowWrap: 'anywhere' }}>
                  <Text>
                    {kind(x.service)} · {x.recipient}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(x.createdAt)}
                  </Text>
                </div>
                <Group gap="xs" wrap="nowrap">
                  <StatusBadge status={x.status} label={t(`result.${x.status}`)} />
                  <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
                    {formatNaira(x.amount)}
                  </Text>
                </Group>
              </Group>
            </UnstyledButton>
          </li>
        ))}
      </Stack>
      <MoreButton list={list} />
    </Stack>
  );
}
