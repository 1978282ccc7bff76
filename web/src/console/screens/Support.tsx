import { Anchor, Button, Card, Grid, Group, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { post } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { useScreenSearch } from '../nav';
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
import * as ops from '../../api/operations';

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
  const search = useScreenSearch();
  const status = (search.text('status') || 'open') as 'open' | 'closed';
  const awaiting = search.text('awaiting') !== 'false';
  const offset = search.num('offset', 0);
  const { sort, column } = useServerSort(['recent', 'waiting', 'newest', 'oldest'] as const);
  const threads = useQuery(
    adminQueries.supportThreads({ status, ...(status === 'open' && awaiting ? { awaitingReply: true } : {}), sort, limit: LIMIT, offset }),
  );
  const selected = search.text('thread');
  // The thread's customer: kept in the address with the thread, so it stays when the thread leaves the list (answered).
  const customer = search.text('customer') || threads.data?.items.find((t) => t.id === selected)?.userId;
  const admin = useCan()('adminSaveCannedReply');
  return (
    <Stack>
      <ScreenTitle title="Support inbox" />
      <Group align="end">
        <Select
          label="Status"
          data={['open', 'closed']}
          value={status}
          onChange={(v) => search.set({ status: v ?? undefined, thread: undefined, customer: undefined })}
          allowDeselect={false}
          w={140}
        />
        {status === 'open' && (
          <Select
            label="Show"
            data={[
              { value: 'true', label: 'Awaiting our reply' },
              { value: 'false', label: 'All open threads' },
            ]}
            value={String(awaiting)}
            onChange={(v) => search.set({ awaiting: v ?? undefined, thread: undefined, customer: undefined })}
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
                  caption="Support threads"
                  rows={data.items}
                  rowKey={(t) => t.id}
                  selected={selected}
                  empty="No threads here."
                  columns={[
                    {
                      header: 'Customer',
                      cell: (t) => (
                        <Anchor component="button" type="button" onClick={() => search.set({ thread: t.id, customer: t.userId, offset })}>
                          {t.userEmail}
                        </Anchor>
                      ),
                    },
                    {
                      header: 'Last message',
                      cell: (t) => `${when(t.lastMessageAt)}${t.lastAuthor ? ` (${t.lastAuthor})` : ''}`,
                      sort: column({ desc: 'recent', asc: 'waiting' }),
                    },
                    { header: 'Opened', cell: (t) => when(t.createdAt), sort: column({ desc: 'newest', asc: 'oldest' }) },
                    { header: 'Status', cell: (t) => <StatusBadge status={t.status} /> },
                  ]}
                />
                <Pager
                  offset={offset}
                  limit={LIMIT}
                  count={data.items.length}
                  hasMore={data.hasMore}
                  onChange={(o) => search.set({ offset: o })}
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
            <Text c="dimmed">Choose a thread.</Text>
          )}
        </Grid.Col>
      </Grid>
      {admin && <CannedRepliesManager />}
    </Stack>
  );
}

function Thread({ id, open, customerId }: { id: string; open: boolean; customerId?: string }) {
  const messages = useQuery(adminQueries.threadMessages({ threadId: id, limit: 100, offset: 0 }));
  const qc = useQueryClient();
  const form = useSchemaForm(replySchema, { body: '' });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'support'] });
  async function close() {
    setError(null);
    try {
      await post(ops.adminCloseSupportThread, { threadId: id });
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
            Conversation
          </Title>
          {open && (
            <Button size="xs" variant="default" onClick={() => void close()}>
              Close thread
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
                    {m.author === 'operator' ? 'Operator' : 'Customer'}, {when(m.createdAt)}
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
          onSubmit={form.onSubmit(async ({ body }) => {
            setBusy(true);
            setError(null);
            try {
              await post(ops.adminReplySupportThread, { threadId: id, body: body.trim() });
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
            <Textarea label="Reply" autosize minRows={3} {...form.getInputProps('body')} />
            <Failure error={error} />
            <Group>
              <Button type="submit" loading={busy}>
                Send reply
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}
