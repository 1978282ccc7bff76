import { Alert, Anchor, Group, Progress, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { consoleQueries } from '../api/queries/admin';
import { errorMessage } from '../app/errors';
import { refreshConsole } from './fresh';
import { StatusBadge } from '../components/StatusBadge';
import { when } from '../app/format';

/** A job's result in words: each number or text by its translated name (a name the console does not know, as written). */
const summary = ({ t, i18n }: { t: TFunction; i18n: { exists: (key: string) => boolean } }, result: Record<string, unknown> | undefined) =>
  result
    ? Object.entries(result)
        .filter(([, v]) => typeof v === 'number' || typeof v === 'string')
        .map(([k, v]) => {
          const word = `console.jobProgress.result.${k}`;
          return `${i18n.exists(word) ? t(word as never) : k}: ${v}`;
        })
        .join(', ')
    : '';

/**
 * A long action's job: its progress (asked every second until it ends), then its result or its download. When it
 * ends, what it changed shows at once (reconciliation's settled top-ups, a requery's outcomes): the console's reads
 * are asked again.
 */
export function JobProgress({ jobId, label }: { jobId: string; label: string }) {
  const words = useTranslation();
  const { t } = words;
  const q = useQuery(consoleQueries.job(jobId));
  const qc = useQueryClient();
  const ended = q.data?.status === 'done' || q.data?.status === 'failed';
  useEffect(() => {
    if (ended) void refreshConsole(qc);
  }, [ended, qc]);
  if (q.error)
    return (
      <Alert color="red" role="alert">
        {errorMessage(q.error)}
      </Alert>
    );
  const job = q.data;
  const done = job?.progress.done ?? 0;
  const total = job?.progress.total ?? 0;
  const value = job?.status === 'done' ? 100 : total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <Stack gap={6} role="group" aria-label={label}>
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        {job && <StatusBadge status={job.status} />}
      </Group>
      <Progress
        value={value}
        animated={job?.status === 'running' || job?.status === 'queued'}
        aria-label={t('console.jobProgress.progress', { label })}
      />
      <Text size="sm" role="status" data-testid="job-progress">
        {job ? t('console.jobProgress.done', { done, total }) : t('console.jobProgress.starting')}
        {job?.finishedAt ? t('console.jobProgress.finished', { when: when(job.finishedAt) }) : ''}
      </Text>
      {job?.status === 'done' && job.result && <Text size="sm">{summary(words, job.result as Record<string, unknown>)}</Text>}
      {job?.status === 'failed' && (
        <Alert color="red" role="alert">
          {job.error ?? t('console.jobProgress.failed')}
        </Alert>
      )}
      {job?.downloadUrl && (
        <Anchor href={job.downloadUrl} download>
          {t('console.jobProgress.download')}
        </Anchor>
      )}
    </Stack>
  );
}
