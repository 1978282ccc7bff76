import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleQueries } from '../../api/queries/admin';
import { ConsoleLink, useSetSearch } from '../nav';
import { useServerSort } from '../sort';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import { when } from '../../app/format';

const LIMIT = 20;

/**
 * Customers: search by e-mail, phone, username, name (the profile's or the verified KYC name: its beginning or whole
 * words), a reference or an account number, sorted by the service (joined, e-mail); each opens the customer's own
 * page (/console/customers/$userId, Customer.tsx).
 */
export function Customers() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/customers' });
  const setSearch = useSetSearch('/console/customers');
  const q = search.q ?? '';
  const offset = search.offset ?? 0;
  const [draft, setDraft] = useState(q);
  const { sort, column } = useServerSort('/console/customers', ['newest', 'oldest', 'email'] as const);
  const list = useQuery(consoleQueries.customers({ q, sort, limit: LIMIT, offset }));
  return (
    <Stack>
      <ScreenTitle title={t('console.customers.title')} />
      <form
        noValidate
        role="search"
        aria-label={t('console.customers.find')}
        onSubmit={(e) => {
          e.preventDefault();
          setSearch({ q: draft.trim() });
        }}
      >
        <Group align="end">
          <TextInput
            label={t('console.customers.query')}
            description={t('console.customers.queryHint')}
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            w={{ base: '100%', sm: 420 }}
          />
          <Button type="submit" disabled={draft.trim().length < 3}>
            {t('console.customers.search')}
          </Button>
        </Group>
      </form>
      {q.length >= 3 && (
        <Loaded query={list}>
          {(data) => (
            <Stack>
              <DataTable
                caption={t('console.customers.caption', { q })}
                rows={data.items}
                rowKey={(c) => c.userId}
                empty={t('console.customers.empty')}
                columns={[
                  {
                    header: t('console.customers.customer'),
                    sort: column({ asc: 'email' }),
                    cell: (c) => (
                      <Anchor component={ConsoleLink} link={{ to: '/console/customers/$userId', params: { userId: c.userId } }}>
                        {c.email}
                      </Anchor>
                    ),
                  },
                  { header: t('console.customers.username'), cell: (c) => (c.username ? `@${c.username}` : '—') },
                  { header: t('console.customers.name'), cell: (c) => c.fullName ?? '—' },
                  { header: t('console.customers.phone'), cell: (c) => c.phone ?? '—' },
                  { header: t('console.customers.tier'), cell: (c) => c.kycTier },
                  { header: t('console.customers.foundBy'), cell: (c) => c.matchedBy.replace(/_/g, ' ') },
                  { header: t('console.customers.status'), cell: (c) => <StatusBadge status={c.frozen ? 'frozen' : c.status} /> },
                  {
                    header: t('console.customers.joined'),
                    cell: (c) => when(c.createdAt),
                    sort: column({ desc: 'newest', asc: 'oldest' }),
                  },
                ]}
              />
              <Pager
                offset={offset}
                limit={LIMIT}
                count={data.items.length}
                hasMore={data.hasMore}
                onChange={(o) => setSearch({ offset: o })}
              />
            </Stack>
          )}
        </Loaded>
      )}
    </Stack>
  );
}
