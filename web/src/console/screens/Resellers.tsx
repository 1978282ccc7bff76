import { Alert, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { get, post, type GetOutput } from '../../api/client';
import { Failure } from '../../components/Failure';
import { ConsoleLink, useScreenSearch } from '../nav';
import { useCan } from '../roles';
import { useOperatorStepUp } from '../step-up';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import { LevelForms } from './LevelForms';
import * as ops from '../../api/operations';

const LIST = ops.adminListResellers;
const LIMIT = 20;
type Reseller = GetOutput<typeof LIST>['items'][number];
type Key = Reseller['keys'][number];

/**
 * Issue 45: resellers (customers above the default price level) with their level, live API keys (suspend or resume any,
 * admins), purchases by key and day, and their webhook endpoints' health, live and test (labelled); and the price
 * levels' four-eyes forms.
 */
export function Resellers() {
  const search = useScreenSearch();
  const offset = search.num('offset', 0);
  const q = { limit: LIMIT, offset };
  const list = useQuery({ queryKey: ['admin', 'resellers', q], queryFn: () => get(LIST, q), placeholderData: keepPreviousData });
  const can = useCan();
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const suspend = async (k: Key, suspended: boolean) => {
    setError(null);
    setNotice(null);
    try {
      await stepUp.withGrant((grantToken) => post(ops.adminSuspendApiKey, { keyId: k.id, suspended }, grantToken ? { grantToken } : {}));
      setNotice(`Key ${k.name} (${k.prefix}…) is ${suspended ? 'suspended: every request with it is refused' : 'working again'}.`);
      await qc.invalidateQueries({ queryKey: ['admin', 'resellers'] });
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Stack>
      <ScreenTitle title="Resellers" />
      <Failure error={error} />
      {notice && (
        <Alert color="green" role="status">
          {notice}
        </Alert>
      )}
      <Loaded query={list}>
        {(data) => (
          <Stack>
            {data.items.length === 0 && <Text c="dimmed">No customer is above the default level.</Text>}
            {data.items.map((r) => (
              <ResellerCard key={r.userId} r={r} mayUseKeys={can('adminSuspendApiKey')} onSuspend={suspend} />
            ))}
            <Pager
              offset={offset}
              limit={LIMIT}
              count={data.items.length}
              hasMore={offset + data.items.length < data.total}
              onChange={(o) => search.set({ offset: o })}
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
  const id = `reseller-${r.userId}`;
  const usage = r.keys.flatMap((k) => k.usage.map((u) => ({ ...u, key: k })));
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h4" id={id}>
            <ConsoleLink to={`customers/${r.userId}`}>{r.email || r.userId}</ConsoleLink>
          </Title>
          <Badge variant="light">
            {r.level.name} ({r.level.source === 'grant' ? 'granted' : 'upgraded'})
          </Badge>
        </Group>
        <DataTable
          caption={`API keys of ${r.email}`}
          rows={r.keys}
          rowKey={(k) => k.id}
          empty="No live API keys."
          columns={[
            { header: 'Name', cell: (k) => k.name },
            { header: 'Prefix', cell: (k) => <code>{k.prefix}…</code> },
            { header: 'Scopes', cell: (k) => k.scopes.join(', ') },
            { header: 'Last used', cell: (k) => when(k.lastUsedAt) },
            { header: 'State', cell: (k) => <StatusBadge status={k.revokedAt ? 'revoked' : k.suspendedAt ? 'suspended' : 'active'} /> },
            {
              header: 'Action',
              cell: (k) =>
                !mayUseKeys || k.revokedAt ? (
                  '—'
                ) : (
                  <Button
                    size="xs"
                    variant="light"
                    color={k.suspendedAt ? 'green' : 'red'}
                    aria-label={`${k.suspendedAt ? 'Resume' : 'Suspend'} key ${k.name}`}
                    onClick={() => void onSuspend(k, !k.suspendedAt)}
                  >
                    {k.suspendedAt ? 'Resume' : 'Suspend'}
                  </Button>
                ),
            },
          ]}
        />
        <DataTable
          caption={`Purchases by key and day of ${r.email} (last 14 days)`}
          rows={usage}
          rowKey={(u) => `${u.key.id}-${u.day}`}
          empty="No purchases by key in the last 14 days."
          columns={[
            { header: 'Day', cell: (u) => u.day },
            { header: 'Key', cell: (u) => u.key.name },
            { header: 'Purchases', cell: (u) => u.purchases },
            { header: 'Succeeded', cell: (u) => u.succeeded },
            { header: 'Spend', cell: (u) => money(u.spend) },
          ]}
        />
        <DataTable
          caption={`Webhook endpoints of ${r.email}`}
          rows={r.webhooks}
          rowKey={(w) => w.id}
          empty="No webhook endpoints."
          columns={[
            {
              header: 'Mode',
              cell: (w) => (
                <Badge variant="light" color={w.mode === 'test' ? 'gray' : 'blue'}>
                  {w.mode === 'test' ? 'Test' : 'Live'}
                </Badge>
              ),
            },
            { header: 'URL', cell: (w) => w.url },
            { header: 'State', cell: (w) => <StatusBadge status={w.status} /> },
            {
              header: 'Last delivery',
              cell: (w) =>
                w.lastDelivery
                  ? `${w.lastDelivery.status}${w.lastDelivery.responseStatus ? ` (HTTP ${w.lastDelivery.responseStatus})` : ''}, ${when(w.lastDelivery.at)}`
                  : 'none yet',
            },
            { header: 'Failed (7 days)', cell: (w) => w.failedLast7Days },
            { header: 'Waiting', cell: (w) => w.pending },
            { header: 'Disabled because', cell: (w) => w.disabledReason ?? '—' },
          ]}
        />
      </Stack>
    </Card>
  );
}
