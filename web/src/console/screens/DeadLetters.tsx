import { Alert, Button, Select, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { post } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { useScreenSearch } from '../nav';
import { useServerSort } from '../sort';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { ScreenTitle } from '../../components/ScreenTitle';
import { when } from '../../app/format';
import * as ops from '../../api/operations';

const LIMIT = 25;
type Channel = 'email' | 'sms' | 'push';

/**
 * Messages that failed every delivery attempt (e-mail, SMS, push), sorted by the service (failed, attempts), with a
 * retry that queues one again.
 */
export function DeadLetters() {
  const search = useScreenSearch();
  const channel = search.text('channel') as Channel | '';
  const offset = search.num('offset', 0);
  const { sort, column } = useServerSort(['newest', 'oldest', 'attempts'] as const);
  const list = useQuery(adminQueries.deadLetters({ sort, limit: LIMIT, offset, ...(channel ? { channel } : {}) }));
  const qc = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function retry(id: string, recipient: string) {
    setBusy(id);
    setError(null);
    try {
      const r = await post(ops.adminRetryDeadLetter, { id });
      setNotice(r.requeued ? `The message to ${recipient} is queued again.` : `The message to ${recipient} was already retried.`);
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'deadLetters'] });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  }

  return (
    <Stack>
      <ScreenTitle title="Dead letters" />
      <Select
        label="Channel"
        data={[
          { value: '', label: 'All channels' },
          { value: 'email', label: 'E-mail' },
          { value: 'sms', label: 'SMS' },
          { value: 'push', label: 'Push' },
        ]}
        value={channel}
        onChange={(v) => search.set({ channel: v || undefined })}
        allowDeselect={false}
        w={180}
      />
      {notice && (
        <Alert color="blue" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <Failure error={error} />
      <Loaded query={list}>
        {(data) => (
          <Stack>
            <DataTable
              caption="Messages that could not be delivered"
              rows={data.items}
              rowKey={(d) => d.id}
              empty="No dead letters."
              columns={[
                { header: 'Channel', cell: (d) => d.channel },
                { header: 'Recipient', cell: (d) => d.recipient },
                { header: 'Subject', cell: (d) => d.subject ?? '—' },
                { header: 'Attempts', cell: (d) => d.attempts, sort: column({ desc: 'attempts' }) },
                { header: 'Last error', cell: (d) => d.lastError ?? '—' },
                { header: 'Failed', cell: (d) => when(d.failedAt), sort: column({ desc: 'newest', asc: 'oldest' }) },
                {
                  header: 'Actions',
                  cell: (d) => (
                    <Button
                      size="xs"
                      variant="default"
                      loading={busy === d.id}
                      onClick={() => void retry(d.id, d.recipient)}
                      aria-label={`Retry the message to ${d.recipient}`}
                    >
                      Retry
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
              onChange={(o) => search.set({ offset: o })}
            />
          </Stack>
        )}
      </Loaded>
    </Stack>
  );
}
