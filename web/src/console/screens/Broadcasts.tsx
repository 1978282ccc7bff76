import { Button, Card, Group, Progress, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type PostOutput } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { useSetSearch } from '../nav';
import { Loaded } from '../../components/Loaded';
import { Pager } from '../../components/DataTable';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import { when } from '../../app/format';
import { NewBroadcast } from './BroadcastNew';
import * as ops from '../../api/operations';
import * as api from '../../api/calls';

const LIMIT = 10;
type Broadcast = PostOutput<typeof ops.adminEndBroadcast>['broadcast'];

/** Broadcasts to customers (optionally with a poll): create, see the live results, end one early. */
export function Broadcasts() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/broadcasts' });
  const setSearch = useSetSearch('/console/broadcasts');
  const status = (search.status ?? '') as '' | 'scheduled' | 'active' | 'ended';
  const offset = search.offset ?? 0;
  const list = useQuery(adminQueries.broadcasts({ limit: LIMIT, offset, ...(status ? { status } : {}) }));
  return (
    <Stack>
      <ScreenTitle title={t('console.broadcasts.title')} />
      <NewBroadcast />
      <Select
        label={t('console.broadcasts.status')}
        data={[
          { value: '', label: t('console.broadcasts.statuses.all') },
          { value: 'scheduled', label: t('console.broadcasts.statuses.scheduled') },
          { value: 'active', label: t('console.broadcasts.statuses.active') },
          { value: 'ended', label: t('console.broadcasts.statuses.ended') },
        ]}
        value={status}
        onChange={(v) => setSearch({ status: v || undefined })}
        allowDeselect={false}
        w={160}
      />
      <Loaded query={list}>
        {(data) => (
          <Stack>
            {data.items.length === 0 && <Text c="dimmed">{t('console.broadcasts.none')}</Text>}
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              {data.items.map((b) => (
                <BroadcastCard key={b.id} b={b} />
              ))}
            </SimpleGrid>
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
    </Stack>
  );
}

function BroadcastCard({ b }: { b: Broadcast }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const titleId = `broadcast-${b.id}`;
  return (
    <Card withBorder component="article" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h5" id={titleId}>
            {b.title}
          </Title>
          <StatusBadge status={b.status} />
        </Group>
        <Text size="sm">{b.body}</Text>
        <Text size="xs" c="dimmed">
          {t('console.broadcasts.from', { when: when(b.startsAt) })}
          {b.endsAt ? t('console.broadcasts.to', { when: when(b.endsAt) }) : ''}
          {b.audience.minKycTier !== undefined
            ? t('console.broadcasts.tier', { tier: b.audience.minKycTier })
            : t('console.broadcasts.everyone')}
        </Text>
        {b.poll && (
          <Stack gap={4} aria-label={t('console.broadcasts.pollResults', { question: b.poll.question })} role="group">
            <Text size="sm" fw={600}>
              {t('console.broadcasts.votes', { question: b.poll.question, total: b.poll.totalVotes })}
            </Text>
            {b.poll.options.map((o) => {
              const pct = b.poll!.totalVotes ? Math.round((o.votes / b.poll!.totalVotes) * 100) : 0;
              return (
                <div key={o.id}>
                  <Text size="xs">{t('console.broadcasts.option', { label: o.label, votes: o.votes, pct })}</Text>
                  <Progress value={pct} aria-label={t('console.broadcasts.optionBar', { label: o.label, pct })} />
                </div>
              );
            })}
          </Stack>
        )}
        <Failure error={error} />
        {b.status !== 'ended' && (
          <Group>
            <Button
              size="xs"
              variant="default"
              onClick={async () => {
                setError(null);
                try {
                  await api.adminEndBroadcast({ id: b.id });
                  await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'broadcasts'] });
                } catch (err) {
                  setError(err);
                }
              }}
            >
              {t('console.broadcasts.end')}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
