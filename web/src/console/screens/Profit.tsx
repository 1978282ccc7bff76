import { Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSetSearch } from '../nav';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money } from '../../app/format';
import { ScreenTitle } from '../../components/ScreenTitle';
import * as api from '../../api/calls';

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos' }).format(new Date());

/**
 * Issue 45: profit of successful purchases (retail minus wholesale) by Lagos day, service and price level over a range
 * of Lagos days, with totals by service, by level and overall; filters live in the address.
 */
export function Profit() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/profit' });
  const setSearch = useSetSearch('/console/profit');
  const from = (search.from ?? '') || today();
  const to = (search.to ?? '') || from;
  const service = search.service ?? '';
  const level = search.level ?? '';
  const [draft, setDraft] = useState({ from, to, service, level });
  const q = { from, to, ...(service ? { service } : {}), ...(level ? { level } : {}) };
  const profit = useQuery({ queryKey: ['admin', 'profit', q], queryFn: () => api.adminProfit(q), placeholderData: keepPreviousData });
  return (
    <Stack>
      <ScreenTitle title={t('console.profit.title')} />
      <form
        noValidate
        aria-label={t('console.profit.filters')}
        onSubmit={(e) => {
          e.preventDefault();
          setSearch({
            from: draft.from || undefined,
            to: draft.to || undefined,
            service: draft.service || undefined,
            level: draft.level || undefined,
          });
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} style={{ alignItems: 'end' }}>
          <TextInput
            type="date"
            label={t('console.profit.from')}
            value={draft.from}
            onChange={(e) => setDraft({ ...draft, from: e.currentTarget.value })}
          />
          <TextInput
            type="date"
            label={t('console.profit.to')}
            value={draft.to}
            onChange={(e) => setDraft({ ...draft, to: e.currentTarget.value })}
          />
          <TextInput
            label={t('console.profit.service')}
            placeholder={t('console.profit.all')}
            value={draft.service}
            onChange={(e) => setDraft({ ...draft, service: e.currentTarget.value })}
          />
          <TextInput
            label={t('console.profit.level')}
            placeholder={t('console.profit.all')}
            value={draft.level}
            onChange={(e) => setDraft({ ...draft, level: e.currentTarget.value })}
          />
          <Group>
            <Button type="submit">{t('console.profit.show')}</Button>
          </Group>
        </SimpleGrid>
      </form>
      <Loaded query={profit}>
        {(p) => (
          <Stack>
            <Card withBorder component="section" aria-labelledby="profit-total">
              <Title order={2} size="h4" id="profit-total">
                {p.from === p.to ? p.from : t('console.profit.range', { from: p.from, to: p.to })}
              </Title>
              <Text>
                {t('console.profit.total', {
                  profit: money(p.total.profit),
                  purchases: p.total.count,
                  retail: money(p.total.retail),
                  wholesale: money(p.total.wholesale),
                })}
              </Text>
            </Card>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <DataTable
                caption={t('console.profit.byService')}
                rows={p.byService}
                rowKey={(s) => s.service}
                empty={t('console.profit.none')}
                columns={[
                  { header: t('console.profit.service'), cell: (s) => s.service },
                  { header: t('console.profit.purchases'), cell: (s) => s.count },
                  { header: t('console.profit.retail'), cell: (s) => money(s.retail) },
                  { header: t('console.profit.profit'), cell: (s) => money(s.profit) },
                ]}
              />
              <DataTable
                caption={t('console.profit.byLevel')}
                rows={p.byLevel}
                rowKey={(s) => s.level}
                empty={t('console.profit.none')}
                columns={[
                  { header: t('console.profit.level'), cell: (s) => s.levelName },
                  { header: t('console.profit.purchases'), cell: (s) => s.count },
                  { header: t('console.profit.retail'), cell: (s) => money(s.retail) },
                  { header: t('console.profit.profit'), cell: (s) => money(s.profit) },
                ]}
              />
            </SimpleGrid>
            <DataTable
              caption={t('console.profit.byDay')}
              rows={p.items}
              rowKey={(s) => `${s.day}-${s.service}-${s.level}`}
              empty={t('console.profit.noneInRange')}
              columns={[
                { header: t('console.profit.day'), cell: (s) => s.day },
                { header: t('console.profit.service'), cell: (s) => s.service },
                { header: t('console.profit.level'), cell: (s) => s.levelName },
                { header: t('console.profit.purchases'), cell: (s) => s.count },
                { header: t('console.profit.retail'), cell: (s) => money(s.retail) },
                { header: t('console.profit.wholesale'), cell: (s) => money(s.wholesale) },
                { header: t('console.profit.profit'), cell: (s) => money(s.profit) },
              ]}
            />
          </Stack>
        )}
      </Loaded>
    </Stack>
  );
}
