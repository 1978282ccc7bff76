import { Button, Code, CopyButton, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { developerQueries } from '../../api/queries/developers';
import { formatNaira } from '../../app/format';
import { Failure } from '../../components/Failure';
import { firstPurchase } from './first-purchase';

/** Purchases and spend by key and Lagos day (issue 45): the caller's live and test keys over the last 14 days. */
export function Usage() {
  const { t } = useTranslation();
  const usage = useQuery(developerQueries.usage());
  const items = usage.data ?? [];
  return (
    <Stack gap="xs">
      <Title order={3}>{t('developers.usage')}</Title>
      <Text size="sm">{t('developers.usageHelp')}</Text>
      <Failure error={usage.error} />
      {usage.data && items.length === 0 && <Text c="dimmed">{t('developers.usageNone')}</Text>}
      {items.length > 0 && (
        <Table.ScrollContainer minWidth={420} type="native" tabIndex={0} role="group" aria-label={t('developers.usage')}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('developers.usageDay')}</Table.Th>
                <Table.Th scope="col">{t('developers.usageKey')}</Table.Th>
                <Table.Th scope="col">{t('developers.usagePurchases')}</Table.Th>
                <Table.Th scope="col">{t('developers.usageSucceeded')}</Table.Th>
                <Table.Th scope="col">{t('developers.usageSpend')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((u) => (
                <Table.Tr key={`${u.keyId}-${u.day}`}>
                  <Table.Td>{u.day}</Table.Td>
                  <Table.Td>
                    {u.name} <Code>{u.prefix}…</Code>
                  </Table.Td>
                  <Table.Td>{u.purchases}</Table.Td>
                  <Table.Td>{u.succeeded}</Table.Td>
                  <Table.Td>{formatNaira(u.spend)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

export function FirstPurchase({ prefix }: { prefix: string | null }) {
  const { t } = useTranslation();
  const command = firstPurchase(window.location.origin, prefix, t('developers.keyLine', { prefix: prefix ?? 'vtu_sk_test_' }));
  return (
    <Stack gap="xs">
      <Title order={3}>{t('developers.firstPurchase')}</Title>
      <Text size="sm">{t('developers.firstPurchaseHelp')}</Text>
      <Code block data-testid="first-purchase">
        {command}
      </Code>
      <Group>
        <CopyButton value={command}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy}>
              {copied ? t('developers.copied') : t('developers.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
