import { Button, Code, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { developerQueries } from '../../api/queries/developers';
import { formatNaira } from '../../app/format';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { firstPurchase } from './first-purchase';

/** Purchases and spend by key and Lagos day (issue 45): the caller's live and test keys over the last 14 days. */
export function Usage() {
  const { t } = useTranslation();
  const usage = useQuery(developerQueries.usage());
  return (
    <Stack gap="xs">
      <Title order={3}>{t('developers.usage')}</Title>
      <Text size="sm">{t('developers.usageHelp')}</Text>
      <Loaded query={usage}>
        {(items) => (
          <DataTable
            caption={t('developers.usage')}
            empty={t('developers.usageNone')}
            rows={items}
            rowKey={(u) => `${u.keyId}-${u.day}`}
            columns={[
              { header: t('developers.usageDay'), cell: (u) => u.day },
              {
                header: t('developers.usageKey'),
                cell: (u) => (
                  <>
                    {u.name} <Code>{u.prefix}…</Code>
                  </>
                ),
              },
              { header: t('developers.usagePurchases'), cell: (u) => u.purchases },
              { header: t('developers.usageSucceeded'), cell: (u) => u.succeeded },
              { header: t('developers.usageSpend'), cell: (u) => formatNaira(u.spend) },
            ]}
          />
        )}
      </Loaded>
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
