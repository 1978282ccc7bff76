import { Alert, Button, Select, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { useSetSearch } from '../nav';
import { useServerSort } from '../sort';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { ScreenTitle } from '../../components/ScreenTitle';
import { when } from '../../app/format';
import * as api from '../../api/calls';

const LIMIT = 25;
type Channel = 'email' | 'sms' | 'push' | 'job';

/**
 * Messages that failed every delivery attempt (e-mail, SMS, push), with a retry that queues one again, and every other
 * queue's dead job (its queue and error, no retry: background jobs such as a purchase's are not run again by hand), sorted by
 * the service (failed, attempts). With no channel it lists what the dashboard's Dead letters tile counts.
 */
export function DeadLetters() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/dead-letters' });
  const setSearch = useSetSearch('/console/dead-letters');
  const channel = (search.channel ?? '') as Channel | '';
  const offset = search.offset ?? 0;
  const { sort, column } = useServerSort('/console/dead-letters', ['newest', 'oldest', 'attempts'] as const);
  const list = useQuery(adminQueries.deadLetters({ sort, limit: LIMIT, offset, ...(channel ? { channel } : {}) }));
  const qc = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function retry(id: string, recipient: string) {
    setBusy(id);
    setError(null);
    try {
      const r = await api.adminRetryDeadLetter({ id });
      setNotice(t(r.requeued ? 'console.deadLetters.queued' : 'console.deadLetters.alreadyRetried', { recipient }));
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'deadLetters'] });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  }

  return (
    <Stack>
      <ScreenTitle title={t('console.deadLetters.title')} />
      <Select
        label={t('console.deadLetters.channel')}
        data={[
          { value: '', label: t('console.deadLetters.allChannels') },
          { value: 'email', label: t('console.deadLetters.email') },
          { value: 'sms', label: 'SMS' },
          { value: 'push', label: t('console.deadLetters.push') },
          { value: 'job', label: t('console.deadLetters.job') },
        ]}
        value={channel}
        onChange={(v) => setSearch({ channel: v || undefined })}
        allowDeselect={false}
        w={180}
      />
      {notice && (
        <Alert
          color="blue"
          role="status"
          withCloseButton
          closeButtonLabel={t('console.deadLetters.dismiss')}
          onClose={() => setNotice(null)}
        >
          {notice}
        </Alert>
      )}
      <Failure error={error} />
      <Loaded query={list}>
        {(data) => (
          <Stack>
            <DataTable
              caption={t('console.deadLetters.caption')}
              rows={data.items}
              rowKey={(d) => d.id}
              empty={t('console.deadLetters.empty')}
              columns={[
                {
                  header: t('console.deadLetters.channel'),
                  cell: (d) => (d.channel === 'job' ? t('console.deadLetters.jobRow') : d.channel),
                },
                { header: t('console.deadLetters.recipient'), cell: (d) => d.recipient },
                { header: t('console.deadLetters.subject'), cell: (d) => d.subject ?? '—' },
                { header: t('console.deadLetters.attempts'), cell: (d) => d.attempts, sort: column({ desc: 'attempts' }) },
                { header: t('console.deadLetters.lastError'), cell: (d) => d.lastError ?? '—' },
                { header: t('console.deadLetters.failed'), cell: (d) => when(d.failedAt), sort: column({ desc: 'newest', asc: 'oldest' }) },
                {
                  header: t('console.deadLetters.actions'),
                  cell: (d) =>
                    d.channel === 'job' ? (
                      <Text size="xs" c="dimmed">
                        {t('console.deadLetters.jobNote')}
                      </Text>
                    ) : (
                      <Button
                        size="xs"
                        variant="default"
                        loading={busy === d.id}
                        onClick={() => void retry(d.id, d.recipient)}
                        aria-label={t('console.deadLetters.retryLabel', { recipient: d.recipient })}
                      >
                        {t('console.deadLetters.retry')}
                      </Button>
                    ),
                },
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
  );
}
