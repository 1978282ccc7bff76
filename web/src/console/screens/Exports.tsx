import { Button, Card, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { consoleQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import i18next from 'i18next';
import { showServerIssues, useSchemaForm, type FieldHints } from '../../components/form';
import { JobProgress } from '../JobProgress';
import { useSetSearch } from '../nav';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import { when } from '../../app/format';
import * as api from '../../api/calls';

const LIMIT = 20;
const KINDS = ['transactions', 'ledger', 'topups', 'audit'] as const;
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
// adminStartExport: a kind and a range of Lagos days (both included, at most 366 days).
const exportSchema = z.object({ kind: z.enum(KINDS), from: day, to: day }).refine((v) => v.from <= v.to, { path: ['to'] });
// The range's rule across its two days in words.
const HINTS: FieldHints = { to: (issue) => (issue.code === 'custom' ? i18next.t('console.exportJobs.toAfterFrom') : undefined) };
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos' }).format(new Date());

/** CSV exports for accountants (streamed by the service as a job), and every long job with its progress. */
export function Exports() {
  const { t } = useTranslation();
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const form = useSchemaForm(exportSchema, { kind: 'transactions', from: today(), to: today() }, HINTS);
  return (
    <Stack>
      <ScreenTitle title={t('console.exportJobs.title')} />
      <Card withBorder component="section" aria-labelledby="new-export">
        <Title order={2} size="h4" id="new-export" mb="sm">
          {t('console.exportJobs.newExport')}
        </Title>
        <form
          noValidate
          aria-label={t('console.exportJobs.newExport')}
          onSubmit={form.onSubmit(async (v) => {
            setError(null);
            try {
              setJobId((await api.adminStartExport({ ...v, kind: v.kind as (typeof KINDS)[number] })).jobId);
            } catch (err) {
              if (!showServerIssues(form, err, HINTS)) setError(err);
            }
          })}
        >
          <Group align="start">
            <Select
              label={t('console.exportJobs.what')}
              data={KINDS.map((k) => ({ value: k, label: t(`console.exportJobs.kinds.${k}`) }))}
              allowDeselect={false}
              w={160}
              {...form.getInputProps('kind')}
            />
            <TextInput type="date" label={t('console.exportJobs.from')} {...form.getInputProps('from')} />
            <TextInput type="date" label={t('console.exportJobs.to')} {...form.getInputProps('to')} />
            <Button type="submit" mt={25}>
              {t('console.exportJobs.start')}
            </Button>
          </Group>
        </form>
        <Stack mt="sm">
          <Failure error={error} />
          {jobId && <JobProgress jobId={jobId} label={t('console.exportJobs.job')} />}
        </Stack>
      </Card>
      <Jobs />
    </Stack>
  );
}

function Jobs() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/exports' });
  const setSearch = useSetSearch('/console/exports');
  const kind = (search.kind ?? '') as '' | 'reconciliation' | 'bulk_requery' | 'export';
  const offset = search.offset ?? 0;
  const list = useQuery({ ...consoleQueries.jobs({ limit: LIMIT, offset, ...(kind ? { kind } : {}) }), refetchInterval: 5000 });
  return (
    <Card withBorder component="section" aria-labelledby="jobs">
      <Stack>
        <Title order={2} size="h4" id="jobs">
          {t('console.exportJobs.jobs')}
        </Title>
        <Select
          label={t('console.exportJobs.kind')}
          data={[
            { value: '', label: t('console.exportJobs.jobKinds.all') },
            { value: 'reconciliation', label: t('console.exportJobs.jobKinds.reconciliation') },
            { value: 'bulk_requery', label: t('console.exportJobs.jobKinds.bulk_requery') },
            { value: 'export', label: t('console.exportJobs.jobKinds.export') },
          ]}
          value={kind}
          onChange={(v) => setSearch({ kind: v || undefined })}
          allowDeselect={false}
          w={180}
        />
        <Loaded query={list}>
          {(data) => (
            <Stack>
              <DataTable
                caption={t('console.exportJobs.caption')}
                rows={data.items}
                rowKey={(j) => j.id}
                empty={t('console.exportJobs.empty')}
                columns={[
                  { header: t('console.exportJobs.kind'), cell: (j) => j.kind.replace(/_/g, ' ') },
                  { header: t('console.exportJobs.status'), cell: (j) => <StatusBadge status={j.status} /> },
                  { header: t('console.exportJobs.progress'), cell: (j) => `${j.progress.done} / ${j.progress.total}` },
                  { header: t('console.exportJobs.started'), cell: (j) => when(j.startedAt ?? j.createdAt) },
                  { header: t('console.exportJobs.finished'), cell: (j) => when(j.finishedAt) },
                  { header: t('console.exportJobs.error'), cell: (j) => <Text size="xs">{j.error ?? '—'}</Text> },
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
      </Stack>
    </Card>
  );
}
