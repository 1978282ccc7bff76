import { Alert, Badge, Button, Card, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../app/errors';
import { formatDateTime } from '../../app/format';
import { enablePush } from '../../app/push';
import { notificationsQueries } from '../../api/queries/notifications';
import { pollVoteSchema } from '../../api/schemas';
import { useSchemaForm } from '../../components/form';
import { useNoticeWording } from './wording';
import * as api from '../../api/calls';

/** The inbox (unread count, mark read), announcements with polls, and turning on push for this device. */
export function Inbox() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const list = useInfiniteQuery(notificationsQueries.list());
  const invalidate = () => qc.invalidateQueries({ queryKey: notificationsQueries.all() });
  const markRead = useMutation({
    mutationFn: (id: string) => api.markNotificationRead({ id }),
    onSuccess: invalidate,
  });
  const markAll = useMutation({
    mutationFn: () => api.markAllNotificationsRead({}),
    onSuccess: invalidate,
  });
  const [push, setPush] = useState<string | null>(null);
  const word = useNoticeWording();
  // Each notification in the reader's language, from its kind and params (the service's text is English).
  const items = (list.data?.pages.flatMap((p) => p.items) ?? []).map((n) => ({ ...n, ...word(n) }));
  const unread = list.data?.pages[0]?.unread ?? 0;
  return (
    <Stack maw={640}>
      <Title order={1}>{t('notifications.title')}</Title>
      <Card withBorder>
        <Group justify="space-between">
          <Text fw={600}>{t('notifications.push')}</Text>
          <Button
            variant="light"
            onClick={() =>
              void enablePush()
                .then((r) => setPush(r === 'on' ? t('notifications.pushOn') : t('notifications.pushBlocked')))
                .catch((err) => setPush(errorMessage(err)))
            }
          >
            {t('notifications.enablePush')}
          </Button>
        </Group>
        {push && (
          <Text size="sm" role="status" mt="xs">
            {push}
          </Text>
        )}
      </Card>
      <Group justify="space-between">
        <Text data-testid="unread-count">{t('notifications.unread', { count: unread })}</Text>
        <Button variant="subtle" onClick={() => markAll.mutate()} disabled={unread === 0}>
          {t('notifications.markAll')}
        </Button>
      </Group>
      {list.error && (
        <Alert color="red" role="alert">
          {errorMessage(list.error)}
        </Alert>
      )}
      {list.isSuccess && items.length === 0 && <Text c="dimmed">{t('notifications.none')}</Text>}
      <Stack component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {items.map((n) => (
          <Card key={n.id} withBorder component="li" bg={n.read ? undefined : 'green.0'}>
            <Group justify="space-between" align="start">
              <div style={{ flex: '1 1 12rem', minWidth: 0, overflowWrap: 'anywhere' }}>
                <Text fw={n.read ? 400 : 700}>{n.title}</Text>
                <Text size="sm">{n.body}</Text>
                <Text size="xs" c="dimmed">
                  {formatDateTime(n.createdAt)}
                </Text>
              </div>
              {!n.read && (
                <Button
                  size="compact-sm"
                  variant="light"
                  onClick={() => markRead.mutate(n.id)}
                  aria-label={`${t('notifications.markRead')}: ${n.title}`}
                >
                  {t('notifications.markRead')}
                </Button>
              )}
            </Group>
          </Card>
        ))}
      </Stack>
      {list.hasNextPage && (
        <Button variant="light" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
          {t('tx.more')}
        </Button>
      )}
      <Broadcasts />
    </Stack>
  );
}

function Broadcasts() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const list = useQuery(notificationsQueries.broadcasts());
  const vote = useMutation({
    mutationFn: (v: { pollId: string; optionId: string }) => api.votePoll(v),
    onSuccess: () => qc.invalidateQueries({ queryKey: notificationsQueries.broadcasts().queryKey }),
  });
  if (!list.data?.items.length) return null;
  return (
    <Stack component="section" aria-labelledby="broadcasts">
      <Title order={2} size="h4" id="broadcasts">
        {t('notifications.broadcasts')}
      </Title>
      {list.data.items.map((b) => (
        <Card key={b.id} withBorder>
          <Text fw={600}>{b.title}</Text>
          <Text size="sm">{b.body}</Text>
          {b.poll && (
            <Stack mt="sm">
              {b.poll.myVote ? (
                <Stack gap={2}>
                  <Badge color="green">{t('notifications.voted')}</Badge>
                  {b.poll.options.map((o) => (
                    <Text key={o.id} size="sm">
                      {o.label}
                      {o.votes !== undefined ? `: ${o.votes}` : ''}
                    </Text>
                  ))}
                </Stack>
              ) : (
                <PollVote poll={b.poll} onVote={(optionId) => vote.mutate({ pollId: b.poll!.id, optionId })} busy={vote.isPending} />
              )}
            </Stack>
          )}
        </Card>
      ))}
      {vote.error && (
        <Alert color="red" role="alert">
          {errorMessage(vote.error)}
        </Alert>
      )}
    </Stack>
  );
}

/** A poll's options and the vote (votePoll's rule: one option chosen, said under the question when none is). */
function PollVote(p: {
  poll: { id: string; question: string; options: { id: string; label: string }[] };
  onVote(optionId: string): void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const form = useSchemaForm(pollVoteSchema, { optionId: '' });
  return (
    <form onSubmit={form.onSubmit((v) => p.onVote(v.optionId))} noValidate>
      <Stack gap="xs">
        <Radio.Group label={p.poll.question} {...form.getInputProps('optionId')}>
          <Stack gap={4} mt={4}>
            {p.poll.options.map((o) => (
              <Radio key={o.id} value={o.id} label={o.label} />
            ))}
          </Stack>
        </Radio.Group>
        <Button type="submit" size="compact-md" loading={p.busy}>
          {t('notifications.vote')}
        </Button>
      </Stack>
    </form>
  );
}
