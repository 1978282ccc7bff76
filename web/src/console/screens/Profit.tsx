import { Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { get } from '../../api/client';
import { useScreenSearch } from '../nav';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money } from '../../app/format';
import { ScreenTitle } from '../../components/ScreenTitle';
import * as ops from '../../api/operations';

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos' }).format(new Date());
const PROFIT = ops.adminProfit;

/**
 * Issue 45: profit of successful purchases (retail minus wholesale) by Lagos day, service and price level over a range
 * of Lagos days, with totals by service, by level and overall; filters live in the address.
 */
export function Profit() {
  const search = useScreenSearch();
  const from = search.text('from') || today();
  const to = search.text('to') || from;
  const service = search.text('service');
  const level = search.text('level');
  const [draft, setDraft] = useState({ from, to, service, level });
  const q = { from, to, ...(service ? { service } : {}), ...(level ? { level } : {}) };
  const profit = useQuery({ queryKey: ['admin', 'profit', q], queryFn: () => get(PROFIT, q), placeholderData: keepPreviousData });
  return (
    <Stack>
      <ScreenTitle title="Profit" />
      <form
        aria-label="Profit filters"
        onSubmit={(e) => {
          e.preventDefault();
          search.set({
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
            label="From (Lagos day)"
            value={draft.from}
            onChange={(e) => setDraft({ ...draft, from: e.currentTarget.value })}
          />
          <TextInput
            type="date"
            label="To (Lagos day)"
            value={draft.to}
            onChange={(e) => setDraft({ ...draft, to: e.currentTarget.value })}
          />
          <TextInput
            label="Service"
            placeholder="all"
            value={draft.service}
            onChange={(e) => setDraft({ ...draft, service: e.currentTarget.value })}
          />
          <TextInput
            label="Level"
            placeholder="all"
            value={draft.level}
            onChange={(e) => setDraft({ ...draft, level: e.currentTarget.value })}
          />
          <Group>
            <Button type="submit">Show</Button>
          </Group>
        </SimpleGrid>
      </form>
      <Loaded query={profit}>
        {(p) => (
          <Stack>
            <Card withBorder component="section" aria-labelledby="profit-total">
              <Title order={2} size="h4" id="profit-total">
                {p.from === p.to ? p.from : `${p.from} to ${p.to}`}
              </Title>
              <Text>
                Profit {money(p.total.profit)} on {p.total.count} successful purchases (retail {money(p.total.retail)}, wholesale{' '}
                {money(p.total.wholesale)})
              </Text>
            </Card>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <DataTable
                caption="Profit by service"
                rows={p.byService}
                rowKey={(s) => s.service}
                empty="No successful purchases."
                columns={[
                  { header: 'Service', cell: (s) => s.service },
                  { header: 'Purchases', cell: (s) => s.count },
                  { header: 'Retail', cell: (s) => money(s.retail) },
                  { header: 'Profit', cell: (s) => money(s.profit) },
                ]}
              />
              <DataTable
                caption="Profit by price level"
                rows={p.byLevel}
                rowKey={(s) => s.level}
                empty="No successful purchases."
                columns={[
                  { header: 'Level', cell: (s) => s.levelName },
                  { header: 'Purchases', cell: (s) => s.count },
                  { header: 'Retail', cell: (s) => money(s.retail) },
                  { header: 'Profit', cell: (s) => money(s.profit) },
                ]}
              />
            </SimpleGrid>
            <DataTable
              caption="Profit by day, service and level"
              rows={p.items}
              rowKey={(s) => `${s.day}-${s.service}-${s.level}`}
              empty="No successful purchases in this range."
              columns={[
                { header: 'Day', cell: (s) => s.day },
                { header: 'Service', cell: (s) => s.service },
                { header: 'Level', cell: (s) => s.levelName },
                { header: 'Purchases', cell: (s) => s.count },
                { header: 'Retail', cell: (s) => money(s.retail) },
                { header: 'Wholesale', cell: (s) => money(s.wholesale) },
                { header: 'Profit', cell: (s) => money(s.profit) },
              ]}
            />
          </Stack>
        )}
      </Loaded>
    </Stack>
  );
}
