import { Button, Card, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { post } from '../../api/client';
import { consoleQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { JobProgress } from '../JobProgress';
import { useScreenSearch } from '../nav';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import { when } from '../../app/format';
import * as ops from '../../api/operations';

const LIMIT = 20;
const KINDS = ['transactions', 'ledger', 'topups', 'audit'] as const;
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date');
// adminStartExport: a kind and a range of Lagos days (both included, at most 366 days).
const exportSchema = z
  .object({ kind: z.enum(KINDS), from: day, to: day })
  .refine((v) => v.from <= v.to, { message: 'on or after the start', path: ['to'] });
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos' }).format(new Date());

/** CSV exports for accountants (streamed by the service as a job), and every long job with its progress. */
export function Exports() {
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const form = useSchemaForm(exportSchema, { kind: 'transactions', from: today(), to: today() });
  return (
    <Stack>
      <ScreenTitle title="Exports and jobs" />
      <Card withBorder component="section" aria-labelledby="new-export">
        <Title order={2} size="h4" id="new-export" mb="sm">
          New CSV export
        </Title>
        <form
          aria-label="New CSV export"
          onSubmit={form.onSubmit(async (v) => {
            setError(null);
            try {
              setJobId((await post(ops.adminStartExport, { ...v, kind: v.kind as (typeof KINDS)[number] })).jobId);
            } catch (err) {
              if (!showServerIssues(form, err)) setError(err);
            }
          })}
        >
          <Group align="start">
            <Select
              label="What"
              data={[
                { value: 'transactions', label: 'Purchases' },
                { value: 'ledger', label: 'Ledger' },
                { value: 'topups', label: 'Top-ups' },
                { value: 'audit', label: 'Audit log (admins)' },
              ]}
              allowDeselect={false}
              w={160}
              {...form.getInputProps('kind')}
            />
            <TextInput type="date" label="From (Lagos day)" {...form.getInputProps('from')} />
            <TextInput type="date" label="To (included)" {...form.getInputProps('to')} />
            <Button type="submit" mt={25}>
              Start export
            </Button>
          </Group>
        </form>
        <Stack mt="sm">
          <Failure error={error} />
          {jobId && <JobProgress jobId={jobId} label="Export" />}
        </Stack>
      </Card>
      <Jobs />
    </Stack>
  );
}

function Jobs() {
  const search = useScreenSearch();
  const kind = search.text('kind') as '' | 'reconciliation' | 'bulk_requery' | 'export';
  const offset = search.num('offset', 0);
  const list = useQuery({ ...consoleQueries.jobs({ limit: LIMIT, offset, ...(kind ? { kind } : {}) }), refetchInterval: 5000 });
  return (
    <Card withBorder component="section" aria-labelledby="jobs">
      <Stack>
        <Title order={2} size="h4" id="jobs">
          Jobs
        </Title>
        <Select
          label="Kind"
          data={[
            { value: '', label: 'All' },
            { value: 'reconciliation', label: 'Reconciliation' },
            { value: 'bulk_requery', label: 'Bulk requery' },
            { value: 'export', label: 'Export' },
          ]}
          value={kind}
          onChange={(v) => search.set({ kind: v || undefined })}
          allowDeselect={false}
          w={180}
        />
        <Loaded query={list}>
          {(data) => (
            <Stack>
              <DataTable
                caption="Long actions, newest first"
                rows={data.items}
                rowKey={(j) => j.id}
                empty="No jobs yet."
                columns={[
                  { header: 'Kind', cell: (j) => j.kind.replace(/_/g, ' ') },
                  { header: 'Status', cell: (j) => <StatusBadge status={j.status} /> },
                  { header: 'Progress', cell: (j) => `${j.progress.done} / ${j.progress.total}` },
                  { header: 'Started', cell: (j) => when(j.startedAt ?? j.createdAt) },
                  { header: 'Finished', cell: (j) => when(j.finishedAt) },
                  { header: 'Error', cell: (j) => <Text size="xs">{j.error ?? '—'}</Text> },
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
      </Stack>
    </Card>
  );
}
