import { Button, Card, Group, NumberInput, Progress, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { post, type PostOutput } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { useScreenSearch } from '../nav';
import { Loaded, Pager, ScreenTitle, StatusBadge, when } from '../ui';

const LIMIT = 10;
type Broadcast = PostOutput<'/_serverFn/adminEndBroadcastBearerAdmin'>['broadcast'];

// adminCreateBroadcast's rules: title up to 120, body up to 2000, a poll's question up to 200 and 2-10 options of up to 100.
const broadcastSchema = z.object({
  title: z.string().trim().min(1).max(120),
  body: z.string().trim().min(1).max(2000),
  minKycTier: z.union([z.literal(''), z.number().int().min(0).max(3)]),
  question: z.string().trim().max(200),
  options: z
    .string()
    .refine((v) => {
      const n = v.split('\n').filter((o) => o.trim()).length;
      return n === 0 || (n >= 2 && n <= 10);
    }, 'A poll needs 2 to 10 options, one per line')
    .refine((v) => v.split('\n').every((o) => o.trim().length <= 100), 'Each option is at most 100 characters'),
});

/** Broadcasts to customers (optionally with a poll): create, see the live results, end one early. */
export function Broadcasts() {
  const search = useScreenSearch();
  const status = search.text('status') as '' | 'scheduled' | 'active' | 'ended';
  const offset = search.num('offset', 0);
  const list = useQuery(adminQueries.broadcasts({ limit: LIMIT, offset, ...(status ? { status } : {}) }));
  return (
    <Stack>
      <ScreenTitle title="Broadcasts and polls" />
      <NewBroadcast />
      <Select
        label="Status"
        data={[
          { value: '', label: 'All' },
          { value: 'scheduled', label: 'Scheduled' },
          { value: 'active', label: 'Active' },
          { value: 'ended', label: 'Ended' },
        ]}
        value={status}
        onChange={(v) => search.set({ status: v || undefined })}
        allowDeselect={false}
        w={160}
      />
      <Loaded query={list}>
        {(data) => (
          <Stack>
            {data.items.length === 0 && <Text c="dimmed">No broadcasts.</Text>}
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
              onChange={(o) => search.set({ offset: o })}
            />
          </Stack>
        )}
      </Loaded>
    </Stack>
  );
}

function BroadcastCard({ b }: { b: Broadcast }) {
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
          From {when(b.startsAt)}
          {b.endsAt ? ` to ${when(b.endsAt)}` : ''}
          {b.audience.minKycTier !== undefined ? `, customers of tier ${b.audience.minKycTier} and up` : ', everyone'}
        </Text>
        {b.poll && (
          <Stack gap={4} aria-label={`Poll results: ${b.poll.question}`} role="group">
            <Text size="sm" fw={600}>
              {b.poll.question} ({b.poll.totalVotes} votes)
            </Text>
            {b.poll.options.map((o) => {
              const pct = b.poll!.totalVotes ? Math.round((o.votes / b.poll!.totalVotes) * 100) : 0;
              return (
                <div key={o.id}>
                  <Text size="xs">
                    {o.label}: {o.votes} ({pct}%)
                  </Text>
                  <Progress value={pct} aria-label={`${o.label}: ${pct}%`} />
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
                  await post('/_serverFn/adminEndBroadcastBearerAdmin', { id: b.id });
                  await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'broadcasts'] });
                } catch (err) {
                  setError(err);
                }
              }}
            >
              End now
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function NewBroadcast() {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const form = useSchemaForm(broadcastSchema, { title: '', body: '', minKycTier: '' as number | '', question: '', options: '' });
  if (!open)
    return (
      <Group>
        <Button onClick={() => setOpen(true)}>New broadcast</Button>
      </Group>
    );
  return (
    <Card withBorder component="section" aria-labelledby="new-broadcast">
      <form
        onSubmit={form.onSubmit(async (v) => {
          setBusy(true);
          setError(null);
          const options = v.options
            .split('\n')
            .map((o) => o.trim())
            .filter(Boolean);
          try {
            await post('/_serverFn/adminCreateBroadcastBearerAdmin', {
              title: v.title.trim(),
              body: v.body.trim(),
              audience: v.minKycTier !== '' ? { minKycTier: v.minKycTier } : {},
              ...(options.length ? { poll: { options, ...(v.question.trim() ? { question: v.question.trim() } : {}) } } : {}),
            });
            form.reset();
            setOpen(false);
            await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'broadcasts'] });
          } catch (err) {
            if (!showServerIssues(form, err)) setError(err);
          } finally {
            setBusy(false);
          }
        })}
      >
        <Stack>
          <Title order={2} size="h4" id="new-broadcast">
            New broadcast
          </Title>
          <TextInput label="Title" required {...form.getInputProps('title')} />
          <Textarea label="Message" required autosize minRows={3} {...form.getInputProps('body')} />
          <NumberInput
            label="Only customers of KYC tier (and up)"
            min={0}
            max={3}
            allowDecimal={false}
            {...form.getInputProps('minKycTier')}
          />
          <TextInput label="Poll question (optional)" {...form.getInputProps('question')} />
          <Textarea label="Poll options, one per line (none for no poll)" autosize minRows={2} {...form.getInputProps('options')} />
          <Failure error={error} />
          <Group>
            <Button type="submit" loading={busy}>
              Send broadcast
            </Button>
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
