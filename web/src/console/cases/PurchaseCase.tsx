import { Anchor, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminQueries } from '../../api/queries/admin';
import { caseQueries } from '../../api/queries/cases';
import { Failure } from '../../components/Failure';
import { ConsoleLink, type ConsoleTarget } from '../nav';
import { useCan } from '../roles';
import { Loaded } from '../../components/Loaded';
import { ReasonDialog } from '../../components/ReasonDialog';
import { StatusBadge } from '../../components/StatusBadge';
import { when } from '../../app/format';
import * as api from '../../api/calls';

/** Where a support thread opens: the inbox with that thread chosen (any status). */
export const threadLink = (id: string, status: 'open' | 'closed'): ConsoleTarget => ({
  to: '/console/support',
  search: { thread: id, status },
});
/** Where a transaction report is listed: the reports of its status. */
export const reportLink = (status: 'open' | 'resolved'): ConsoleTarget => ({
  to: '/console/reports',
  search: { tab: 'transactions', status },
});

/**
 * A purchase's case on its page (issue 44): the customer's reports of it and the support threads that name it, each a
 * link; resolving a report closes its threads, closing a thread resolves its reports (one action each).
 */
export function PurchaseCase({ reference }: { reference: string }) {
  const { t } = useTranslation();
  const kase = useQuery(caseQueries.purchase(reference));
  const can = useCan();
  const qc = useQueryClient();
  const [resolving, setResolving] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'reports'] }),
      qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'support'] }),
    ]);
  async function closeThread(threadId: string) {
    setError(null);
    try {
      await api.adminCloseSupportThread({ threadId });
      await refresh();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <Card withBorder component="section" aria-labelledby="case-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="case-title">
          {t('console.purchaseCase.title', { reference })}
        </Title>
        <Loaded query={kase}>
          {(c) =>
            c.reports.length === 0 && c.threads.length === 0 ? (
              <Text size="sm">{t('console.purchaseCase.none')}</Text>
            ) : (
              <Stack gap="xs">
                <List size="sm" spacing={4} aria-label={t('console.purchaseCase.reports')}>
                  {c.reports.map((r) => (
                    <List.Item key={r.id}>
                      <Group gap="xs">
                        <Anchor component={ConsoleLink} link={reportLink(r.status)}>
                          {t('console.purchaseCase.reportOf', { when: when(r.createdAt) })}
                        </Anchor>
                        <StatusBadge status={r.status} />
                        {r.status === 'open' && can('adminResolveTransactionReport') && (
                          <Button size="compact-xs" variant="light" onClick={() => setResolving(r.id)}>
                            {t('console.purchaseCase.resolveBoth')}
                          </Button>
                        )}
                      </Group>
                    </List.Item>
                  ))}
                </List>
                <List size="sm" spacing={4} aria-label={t('console.purchaseCase.threads')}>
                  {c.threads.map((th) => (
                    <List.Item key={th.id}>
                      <Group gap="xs">
                        <Anchor component={ConsoleLink} link={threadLink(th.id, th.status)}>
                          {t('console.purchaseCase.thread')}
                        </Anchor>
                        <StatusBadge status={th.status} />
                        {th.status === 'open' && can('adminCloseSupportThread') && (
                          <Button size="compact-xs" variant="default" onClick={() => void closeThread(th.id)}>
                            {t('console.purchaseCase.closeBoth')}
                          </Button>
                        )}
                      </Group>
                    </List.Item>
                  ))}
                </List>
              </Stack>
            )
          }
        </Loaded>
        <Failure error={error} />
      </Stack>
      <ReasonDialog
        opened={resolving !== null}
        title={t('console.purchaseCase.resolveTitle')}
        label={t('console.purchaseCase.note')}
        confirm={t('console.purchaseCase.resolveBoth')}
        onClose={() => setResolving(null)}
        onConfirm={async (note) => {
          await api.adminResolveTransactionReport({ id: resolving!, note: note ?? '' });
          await refresh();
        }}
      >
        <Text size="sm">{t('console.purchaseCase.threadsClose')}</Text>
      </ReasonDialog>
    </Card>
  );
}

/** A support thread's reports (issue 44), beside the conversation: each a link with its status. */
export function ThreadReports({ threadId }: { threadId: string }) {
  const { t } = useTranslation();
  const reports = useQuery(caseQueries.thread(threadId));
  const items = reports.data?.items ?? [];
  if (!items.length) return null;
  return (
    <Text size="sm" component="div">
      {t('console.purchaseCase.about', { count: items.length })}{' '}
      {items.map((r, i) => (
        <span key={r.id}>
          {i > 0 && ', '}
          <Anchor component={ConsoleLink} link={reportLink(r.status)}>
            {r.reference}
          </Anchor>{' '}
          ({r.status})
        </span>
      ))}
      {t('console.purchaseCase.closing')}
    </Text>
  );
}
