import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleQueries } from '../../api/queries/admin';
import { ConsoleLink } from '../nav';
import { ReferenceLink } from '../references';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { StatusBadge } from '../../components/StatusBadge';

/** How many of the customer's last purchases and top-ups the thread shows (the customer's page has the rest). */
const LAST = 5;

interface Line {
  reference: string;
  what: string;
  amount: number;
  status: string;
  createdAt: string;
}

/** One short list of the customer's money (purchases or top-ups): each line's reference a link to its screen. */
function Lines({ id, title, lines, empty }: { id: string; title: string; lines: Line[]; empty: string }) {
  return (
    <Stack gap={4} component="section" aria-labelledby={id}>
      <Title order={3} size="h6" id={id}>
        {title}
      </Title>
      {lines.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack component="ul" gap={6} p={0} m={0} style={{ listStyle: 'none' }}>
          {lines.map((l) => (
            <li key={l.reference}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                <ReferenceLink reference={l.reference} />
              </Text>
              <Group gap={6} wrap="wrap">
                <Text size="sm">
                  {money(l.amount)} {l.what}
                </Text>
                <StatusBadge status={l.status} />
                <Text size="xs" c="dimmed">
                  {when(l.createdAt)}
                </Text>
              </Group>
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} component="div">
        {children}
      </Text>
    </Group>
  );
}

/**
 * The customer beside a support thread (adminGetCustomer): name and e-mail (a link to their page), wallet balance,
 * KYC tier, frozen or not, and their last purchases and top-ups with each reference a link to its screen.
 */
export function SupportCustomer({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const q = useQuery(consoleQueries.customer(userId));
  return (
    <Card withBorder component="section" aria-labelledby="thread-customer">
      <Title order={2} size="h4" id="thread-customer" mb="xs">
        {t('console.supportCustomer.title')}
      </Title>
      <Loaded query={q}>
        {(c) => (
          <Stack gap="sm">
            <Stack gap={2}>
              {c.profile.fullName && <Text fw={600}>{c.profile.fullName}</Text>}
              <Anchor
                component={ConsoleLink}
                link={{ to: '/console/customers/$userId', params: { userId } }}
                style={{ overflowWrap: 'anywhere' }}
              >
                {c.profile.email}
              </Anchor>
            </Stack>
            <Group gap="lg" wrap="wrap">
              <Fact label={t('console.supportCustomer.balance')}>{money(c.wallet.balance)}</Fact>
              <Fact label={t('console.supportCustomer.kycTier')}>{c.kyc.tier}</Fact>
              <Fact label={t('console.supportCustomer.account')}>
                <StatusBadge status={c.frozen ? 'frozen' : c.profile.status} />
              </Fact>
            </Group>
            {c.frozen && c.freeze && (
              <Text size="sm" c="red.8">
                {t('console.supportCustomer.frozenSince', { when: when(c.freeze.frozenAt), reason: c.freeze.reason })}
              </Text>
            )}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <Lines
                id="thread-customer-purchases"
                title={t('console.supportCustomer.lastPurchases')}
                empty={t('console.supportCustomer.noPurchases')}
                lines={c.purchases
                  .slice(0, LAST)
                  .map((p) => ({ ...p, what: t('console.supportCustomer.purchase', { service: p.service, recipient: p.recipient }) }))}
              />
              <Lines
                id="thread-customer-topups"
                title={t('console.supportCustomer.lastTopUps')}
                empty={t('console.supportCustomer.noTopUps')}
                lines={c.topups.slice(0, LAST).map((u) => ({ ...u, what: t('console.supportCustomer.topUp', { processor: u.processor }) }))}
              />
            </SimpleGrid>
          </Stack>
        )}
      </Loaded>
    </Card>
  );
}
