import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { adminQueries } from '../../api/queries/admin';
import { ConsoleLink } from '../nav';
import { DataTable, Loaded, money, ScreenTitle } from '../ui';

const PEEK = 100;
const count = (q: UseQueryResult<{ items: unknown[]; hasMore: boolean }>) =>
  q.data ? `${q.data.items.length}${q.data.hasMore ? '+' : ''}` : q.error ? '—' : '…';

/** The day's work at a glance: what waits for an operator, each linking to its screen, and the provider floats. */
export function Dashboard() {
  const kyc = useQuery(adminQueries.kycList({ status: 'pending', limit: PEEK, offset: 0 }));
  const stuck = useQuery(adminQueries.stuck({ limit: PEEK, offset: 0 }));
  const letters = useQuery(adminQueries.deadLetters({ limit: PEEK, offset: 0 }));
  const threads = useQuery(adminQueries.supportThreads({ status: 'open', awaitingReply: true, limit: PEEK, offset: 0 }));
  const reports = useQuery(adminQueries.transactionReports({ status: 'open', limit: PEEK, offset: 0 }));
  const floats = useQuery(adminQueries.floats());
  const tiles = [
    { label: 'KYC submissions waiting', value: count(kyc), to: 'kyc' },
    { label: 'Stuck purchases', value: count(stuck), to: 'transactions' },
    { label: 'Support threads awaiting a reply', value: count(threads), to: 'support' },
    { label: 'Open transaction reports', value: count(reports), to: 'reports' },
    { label: 'Dead letters', value: count(letters), to: 'dead-letters' },
  ];
  return (
    <Stack>
      <ScreenTitle title="Dashboard" />
      <section aria-labelledby="queues">
        <Title order={2} size="h4" id="queues" mb="sm">
          Waiting for an operator
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, lg: 5 }}>
          {tiles.map((t) => (
            <Card key={t.to} withBorder component={ConsoleLink} to={t.to}>
              <Text size="xl" fw={700}>
                {t.value}
              </Text>
              <Text size="sm">{t.label}</Text>
            </Card>
          ))}
        </SimpleGrid>
      </section>
      <section aria-labelledby="floats">
        <Title order={2} size="h4" id="floats" mb="sm">
          Provider floats
        </Title>
        <Loaded query={floats}>
          {(data) => (
            <DataTable
              caption="Float per provider: our ledger and the provider's own balance"
              rows={data.items}
              rowKey={(f) => f.provider}
              columns={[
                { header: 'Provider', cell: (f) => f.provider },
                { header: 'Services', cell: (f) => f.services.join(', ') },
                { header: 'Ledger float', cell: (f) => money(f.ledgerFloat) },
                { header: 'Provider balance', cell: (f) => money(f.providerBalance) },
              ]}
            />
          )}
        </Loaded>
      </section>
    </Stack>
  );
}
