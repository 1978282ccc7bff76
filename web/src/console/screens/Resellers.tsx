import { Alert, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type GetOutput } from '../../api/client';
import { Failure } from '../../components/Failure';
import { ConsoleLink, useSetSearch } from '../nav';
import { useCan } from '../roles';
import { useOperatorStepUp } from '../step-up';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import { LevelForms } from './LevelForms';
import * as ops from '../../api/operations';
import * as api from '../../api/calls';

const LIMIT = 20;
type Reseller = GetOutput<typeof ops.adminListResellers>['items'][number];
type Key = Reseller['keys'][number];

/**
 * Issue 45: resellers (customers above the default price level, and every customer holding an API key) with their level,
 * their API keys, live and test (labelled; suspend or resume any, admins), purchases by key and day, and their webhook
 * endpoints' health, live and test (labelled); and the price levels' four-eyes forms.
 */
export function Resellers() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/resellers' });
  const setSearch = useSetSearch('/console/resellers');
  const offset = search.offset ?? 0;
  const q = { limit: LIMIT, offset };
  const list = useQuery({
    queryKey: ['admin', 'resellers', q],
    queryFn: () => api.adminListResellers(q),
    placeholderData: keepPreviousData,
  });
  const can = useCan();
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const suspend = async (k: Key, suspended: boolean) => {
    setError(null);
    setNotice(null);
    try {
      await stepUp.withGrant((grantToken) => api.adminSuspendApiKey({ keyId: k.id, suspended }, grantToken ? { grantToken } : {}));
      setNotice(t(suspended ? 'console.resellers.suspended' : 'console.resellers.resumed', { name: k.name, prefix: k.prefix }));
      await qc.invalidateQueries({ queryKey: ['admin', 'resellers'] });
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Stack>
      <ScreenTitle title={t('console.resellers.title')} />
      <Failure error={error} />
      {notice && (
        <Alert color="green" role="status">
          {notice}
        </Alert>
      )}
      <Loaded query={list}>
        {(data) => (
          <Stack>
            {data.items.length === 0 && <Text c="dimmed">{t('console.resellers.none')}</Text>}
            {data.items.map((r) => (
              <ResellerCard key={r.userId} r={r} mayUseKeys={can('adminSuspendApiKey')} onSuspend={suspend} />
            ))}
            <Pager
              offset={offset}
              limit={LIMIT}
              count={data.items.length}
              hasMore={offset + data.items.length < data.total}
              onChange={(o) => setSearch({ offset: o })}
            />
          </Stack>
        )}
      </Loaded>
      {(can('adminRequestLevelGrant') || can('adminRequestPriceLevel')) && <LevelForms withGrant={stepUp.withGrant} />}
      {stepUp.modal}
    </Stack>
  );
}

function ResellerCard({
  r,
  mayUseKeys,
  onSuspend,
}: {
  r: Reseller;
  mayUseKeys: boolean;
  onSuspend: (k: Key, s: boolean) => Promise<void>;
}) {
  const { t } = useTranslation();
  const id = `reseller-${r.userId}`;
  const usage = r.keys.flatMap((k) => k.usage.map((u) => ({ ...u, key: k })));
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h4" id={id}>
            <ConsoleLink link={{ to: '/console/customers/$userId', params: { userId: r.userId } }}>{r.email || r.userId}</ConsoleLink>
          </Title>
          <Badge variant="light">
            {t(
              r.level.source === 'grant'
                ? 'console.resellers.granted'
                : r.level.source === 'default'
                  ? 'console.resellers.atDefault'
                  : 'console.resellers.upgraded',
              { level: r.level.name },
            )}
          </Badge>
        </Group>
        <DataTable
          caption={t('console.resellers.keysCaption', { email: r.email })}
          rows={r.keys}
          rowKey={(k) => k.id}
          empty={t('console.resellers.noKeys')}
          columns={[
            {
              header: t('console.resellers.mode'),
              cell: (k) => (
                <Badge variant="light" color={k.mode === 'test' ? 'gray' : 'blue'}>
                  {t(k.mode === 'test' ? 'console.resellers.test' : 'console.resellers.live')}
                </Badge>
              ),
            },
            { header: t('console.resellers.name'), cell: (k) => k.name },
            { header: t('console.resellers.prefix'), cell: (k) => <code>{k.prefix}…</code> },
            { header: t('console.resellers.scopes'), cell: (k) => k.scopes.join(', ') },
            { header: t('console.resellers.lastUsed'), cell: (k) => when(k.lastUsedAt) },
            {
              header: t('console.resellers.state'),
              cell: (k) => <StatusBadge status={k.revokedAt ? 'revoked' : k.suspendedAt ? 'suspended' : 'active'} />,
            },
            {
              header: t('console.resellers.action'),
              cell: (k) =>
                !mayUseKeys || k.revokedAt ? (
                  '—'
                ) : (
                  <Button
                    size="xs"
                    variant="light"
                    color={k.suspendedAt ? 'green' : 'red'}
                    aria-label={t(k.suspendedAt ? 'console.resellers.resumeKey' : 'console.resellers.suspendKey', { name: k.name })}
                    onClick={() => void onSuspend(k, !k.suspendedAt)}
                  >
                    {t(k.suspendedAt ? 'console.resellers.resume' : 'console.resellers.suspend')}
                  </Button>
                ),
            },
          ]}
        />
        <DataTable
          caption={t('console.resellers.usageCaption', { email: r.email })}
          rows={usage}
          rowKey={(u) => `${u.key.id}-${u.day}`}
          empty={t('console.resellers.noUsage')}
          columns={[
            { header: t('console.resellers.day'), cell: (u) => u.day },
            { header: t('console.resellers.key'), cell: (u) => u.key.name },
            { header: t('console.resellers.purchases'), cell: (u) => u.purchases },
            { header: t('console.resellers.succeeded'), cell: (u) => u.succeeded },
            { header: t('console.resellers.spend'), cell: (u) => money(u.spend) },
          ]}
        />
        <DataTable
          caption={t('console.resellers.webhooksCaption', { email: r.email })}
          rows={r.webhooks}
          rowKey={(w) => w.id}
          empty={t('console.resellers.noWebhooks')}
          columns={[
            {
              header: t('console.resellers.mode'),
              cell: (w) => (
                <Badge variant="light" color={w.mode === 'test' ? 'gray' : 'blue'}>
                  {t(w.mode === 'test' ? 'console.resellers.test' : 'console.resellers.live')}
                </Badge>
              ),
            },
            { header: t('console.resellers.url'), cell: (w) => w.url },
            { header: t('console.resellers.state'), cell: (w) => <StatusBadge status={w.status} /> },
            {
              header: t('console.resellers.lastDelivery'),
              cell: (w) =>
                w.lastDelivery
                  ? `${w.lastDelivery.status}${w.lastDelivery.responseStatus ? t('console.resellers.http', { status: w.lastDelivery.responseStatus }) : ''}, ${when(w.lastDelivery.at)}`
                  : t('console.resellers.noneYet'),
            },
            { header: t('console.resellers.failed7'), cell: (w) => w.failedLast7Days },
            { header: t('console.resellers.waiting'), cell: (w) => w.pending },
            { header: t('console.resellers.disabledBecause'), cell: (w) => w.disabledReason ?? '—' },
          ]}
        />
      </Stack>
    </Card>
  );
}
