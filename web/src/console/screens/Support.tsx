import { Anchor, Button, Card, Grid, Group, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { useSetSearch } from '../nav';
import { ThreadReports } from '../cases/PurchaseCase';
import { LinkedText } from '../references';
import { useServerSort } from '../sort';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import { when } from '../../app/format';
import { SupportCustomer } from './SupportCustomer';
import { CannedRepliesManager, SavedReplyPicker } from './CannedReplies';
import { useCan } from '../roles';
import * as api from '../../api/calls';

const LIMIT = 20;
// adminReplySupportThread's body: 1 to 4000 characters.
const replySchema = z.object({ body: z.string().trim().min(1).max(4000) });

/**
 * The support inbox: threads by status (and those awaiting a reply), sorted by the service (latest activity or
 * longest waiting, newest or oldest opened); the chosen thread's customer (SupportCustomer), the conversation with
 * its purchase and top-up references as links, a reply (a saved reply can start it), closing; admins manage the
 * saved replies below. The thread and its customer live in the address.
 */
export function Support() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/support' });
  const setSearch = useSetSearch('/console/support');
  const status = (search.status ?? 'open') as 'open' | 'closed';
  const awaiting = search.awaiting !== 'false';
  const offset = search.offset ?? 0;
  const { sort, column } = useServerSort('/console/support', ['recent', 'waiting', 'newest', 'oldest'] as const);
  const threads = useQuery(
    adminQueries.supportThreads({ status, ...(status === 'open' && awaiting ? { awaitingReply: true } : {}), sort, limit: LIMIT, offset }),
  );
  const selected = search.thread ?? '';
  // The thread's customer: kept in the address with the thread, so it stays when the thread leaves the list (answered).
  const customer = search.customer || threads.data?.items.find((th) => th.id === selected)?.userId;
  const admin = useCan()('adminSaveCannedReply');
  return (
    <Stack>
      <ScreenTitle title={t('console.support.title')} />
      <Group align="end">
        <Select
          label={t('console.support.status')}
          data={[
            { value: 'open', label: t('console.support.open') },
            { value: 'closed', label: t('console.support.closed') },
          ]}
          value={status}
          onChange={(v) => setSearch({ status: v ?? undefined, thread: undefined, customer: undefined })}
          allowDeselect={false}
          w={140}
        />
        {status === 'open' && (
          <Select
            label={t('console.support.show')}
            data={[
              { value: 'true', label: t('console.support.awaiting') },
              { value: 'false', label: t('console.support.allOpen') },
            ]}
            value={String(awaiting)}
            onChange={(v) => setSearch({ awaiting: (v ?? undefined) as typeof search.awaiting, thread: undefined, customer: undefined })}
            allowDeselect={false}
            w={200}
          />
        )}
      </Group>
      <Grid>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Loaded query={threads}>
            {(data) => (
              <Stack>
                <DataTable
                  caption={t('console.support.caption')}
                  rows={data.items}
                  rowKey={(th) => th.id}
                  selected={selected}
                  empty={t('console.support.empty')}
                  columns={[
                    {
                      header: t('console.support.customer'),
                      cell: (th) => (
                        <Anchor component="button" type="button" onClick={() => setSearch({ thread: th.id, customer: th.userId, offset })}>
                          {th.userEmail}
                        </Anchor>
                      ),
                    },
                    {
                      header: t('console.support.lastMessage'),
                      cell: (th) => `${when(th.lastMessageAt)}${th.lastAuthor ? ` (${th.lastAuthor})` : ''}`,
                      sort: column({ desc: 'recent', asc: 'waiting' }),
                    },
                    {
                      header: t('console.support.opened'),
                      cell: (th) => when(th.createdAt),
                      sort: column({ desc: 'newest', asc: 'oldest' }),
                    },
                    { header: t('console.support.status'), cell: (th) => <StatusBadge status={th.status} /> },
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
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          {selected ? (
            <Stack>
              {customer && <SupportCustomer userId={customer} />}
              <Thread id={selected} open={status === 'open'} customerId={customer} />
            </Stack>
          ) : (
            <Text c="dimmed">{t('console.support.choose')}</Text>
          )}
        </Grid.Col>
      </Grid>
      {admin && <CannedRepliesManager />}
    </Stack>
  );
}

function Thread({ id, open, customerId }: { id: string; open: boolean; customerId?: string }) {
  const { t } = useTranslation();
  const messages = useQuery(adminQueries.threadMessages({ threadId: id, limit: 100, offset: 0 }));
  const qc = useQueryClient();
  const form = useSchemaForm(replySchema, { body: '' });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'support'] });
  async function close() {
    setError(null);
    try {
      await api.adminCloseSupportThread({ threadId: id });
      // Its reports are resolved with it (issue 44).
      await Promise.all([refresh(), qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'reports'] })]);
    } catch (err) {
      setError(err);
    }
  }
  return (
    <Card withBorder component="section" aria-labelledby="thread-title">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h4" id="thread-title">
            {t('console.support.conversation')}
          </Title>
          {open && (
            <Button size="xs" variant="default" onClick={() => void close()}>
              {t('console.support.closeThread')}
            </Button>
          )}
        </Group>
        <ThreadReports threadId={id} />
        <Loaded query={messages}>
          {(data) => (
            <Stack gap="xs">
              {data.items.map((m) => (
                <Paper key={m.id} p="xs" withBorder bg={m.author === 'operator' ? 'var(--mantine-color-brand-0)' : undefined}>
                  <Text size="xs" c="dimmed">
                    {t(m.author === 'operator' ? 'console.support.byOperator' : 'console.support.byCustomer', { when: when(m.createdAt) })}
                  </Text>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    <LinkedText text={m.body} />
                  </Text>
                </Paper>
              ))}
            </Stack>
          )}
        </Loaded>
        <form
          noValidate
          onSubmit={form.onSubmit(async ({ body }) => {
            setBusy(true);
            setError(null);
            try {
              await api.adminReplySupportThread({ threadId: id, body: body.trim() });
              form.reset();
              await refresh();
            } catch (err) {
              if (!showServerIssues(form, err)) setError(err);
            } finally {
              setBusy(false);
            }
          })}
        >
          <Stack gap="xs">
            <SavedReplyPicker customerId={customerId} onPick={(body) => form.setFieldValue('body', body)} />
            <Textarea label={t('console.support.reply')} autosize minRows={3} {...form.getInputProps('body')} />
            <Failure error={error} />
            <Group>
              <Button type="submit" loading={busy}>
                {t('console.support.send')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}
