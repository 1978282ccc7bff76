import { Alert, Badge, Button, Group, NativeSelect, SegmentedControl, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../app/errors';
import { formatDateTime, formatNaira } from '../../app/format';
import { useKindLabel } from '../../app/kind-tabs';
import { ActivityList } from '../../components/ActivityList';
import { walletQueries } from '../../api/queries/wallet';
import { vtuQueries, type TransactionFilter } from '../../api/queries/vtu';

const PAGE = 20;

/** Every money movement: the wallet's ledger lines (filter in/out), purchases (filter by status and service, loaded page by page as you scroll), top-ups. */
export function Transactions() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'wallet' | 'purchases'>('wallet');
  return (
    <Stack maw={720}>
      <Title order={1}>{t('tx.title')}</Title>
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
      {tab === 'wallet' ? <WalletLines /> : <Purchases />}
    </Stack>
  );
}

function WalletLines() {
  const { t } = useTranslation();
  const [dir, setDir] = useState<'all' | 'in' | 'out'>('all');
  const wallet = useQuery(walletQueries.state());
  const items = wallet.data?.log.filter((l) => dir === 'all' || (dir === 'in' ? l.amount > 0 : l.amount < 0));
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
    </Stack>
  );
}

function Purchases() {
  const { t } = useTranslation();
  const kind = useKindLabel();
  const navigate = useNavigate();
  const [status, setStatus] = useState('');
  const [service, setService] = useState('');
  const list = useInfiniteQuery(vtuQueries.transactions({ status, service } as TransactionFilter, PAGE));
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
                  <Badge color={x.status === 'success' ? 'green' : x.status === 'failed' ? 'red' : 'blue'}>{t(`result.${x.status}`)}</Badge>
                  <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
                    {formatNaira(x.amount)}
                  </Text>
                </Group>
              </Group>
            </UnstyledButton>
          </li>
        ))}
      </Stack>
      {/* Infinite scroll: the next page loads when this button scrolls into view (or is pressed). */}
      {list.hasNextPage && (
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
      )}
    </Stack>
  );
}
