import { Box, Button, Card, Group, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** A column the service sorts by: its current direction, and what a click on its header asks for. */
  sort?: { direction: 'ascending' | 'descending' | 'none'; onSort: () => void };
}

/**
 * A table of one page the service answered: the caption names it for screen readers, a selected row is marked,
 * and an empty page says so. Paging (and any filter) is the caller's, on the service.
 */
export function DataTable<T>(p: {
  caption: string;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  selected?: string;
  empty?: string;
}) {
  // On a phone every row is a card: each value under its column's name, the actions in reach (issue 44).
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  if (p.rows.length === 0) return <Text c="dimmed">{p.empty ?? t('kit.empty')}</Text>;
  if (phone) return <CardList {...p} />;
  return (
    // Native scrolling, focusable so a keyboard can scroll a wide table sideways (axe: scrollable-region-focusable).
    <Table.ScrollContainer minWidth={560} type="native" tabIndex={0} role="group" aria-label={p.caption}>
      <Table striped highlightOnHover verticalSpacing="xs">
        <Table.Caption>{p.caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {p.columns.map((c) => (
              <Table.Th key={c.header} scope="col" aria-sort={c.sort?.direction}>
                {c.sort ? (
                  <Button variant="subtle" size="compact-sm" onClick={c.sort.onSort}>
                    {c.header} {c.sort.direction === 'ascending' ? '↑' : c.sort.direction === 'descending' ? '↓' : ''}
                  </Button>
                ) : (
                  c.header
                )}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {p.rows.map((row) => {
            const key = p.rowKey(row);
            const selected = key === p.selected;
            return (
              <Table.Tr key={key} aria-selected={selected || undefined} bg={selected ? 'var(--mantine-color-brand-0)' : undefined}>
                {p.columns.map((c) => (
                  <Table.Td key={c.header}>{c.cell(row)}</Table.Td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A table's rows as a list of cards (a phone): the sortable columns as buttons above it. */
function CardList<T>(p: Parameters<typeof DataTable<T>>[0]) {
  const { t } = useTranslation();
  const sortable = p.columns.filter((c) => c.sort);
  return (
    <Stack gap="xs">
      {sortable.length > 0 && (
        <Group gap="xs" role="group" aria-label={t('kit.sortBy', { caption: p.caption })}>
          {sortable.map((c) => (
            <Button key={c.header} variant="default" size="compact-sm" onClick={c.sort!.onSort} aria-pressed={c.sort!.direction !== 'none'}>
              {c.header} {c.sort!.direction === 'ascending' ? '↑' : c.sort!.direction === 'descending' ? '↓' : ''}
            </Button>
          ))}
        </Group>
      )}
      <Stack component="ul" gap="xs" aria-label={p.caption} p={0} m={0} style={{ listStyle: 'none' }}>
        {p.rows.map((row) => {
          const key = p.rowKey(row);
          return (
            <Card
              key={key}
              component="li"
              withBorder
              padding="sm"
              aria-current={key === p.selected || undefined}
              bg={key === p.selected ? 'var(--mantine-color-brand-0)' : undefined}
            >
              <Stack gap={6}>
                {p.columns.map((c) => (
                  <Group key={c.header} justify="space-between" align="start" wrap="nowrap" gap="sm">
                    <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                      {c.header}
                    </Text>
                    <Box ta="right" miw={0} style={{ overflowWrap: 'anywhere' }}>
                      {c.cell(row)}
                    </Box>
                  </Group>
                ))}
              </Stack>
            </Card>
          );
        })}
      </Stack>
    </Stack>
  );
}

/** Previous / next over the service's offset paging (the answer says whether there is more). */
export function Pager(p: { offset: number; limit: number; count: number; hasMore: boolean; onChange: (offset: number) => void }) {
  const { t } = useTranslation();
  if (p.offset === 0 && !p.hasMore) return null;
  return (
    <Group justify="space-between" component="nav" aria-label={t('kit.pages')}>
      <Text size="sm" c="dimmed">
        {p.count === 0 ? t('kit.noRows') : t('kit.rows', { from: p.offset + 1, to: p.offset + p.count })}
      </Text>
      <Group gap="xs">
        <Button variant="default" size="xs" disabled={p.offset === 0} onClick={() => p.onChange(Math.max(0, p.offset - p.limit))}>
          {t('kit.previous')}
        </Button>
        <Button variant="default" size="xs" disabled={!p.hasMore} onClick={() => p.onChange(p.offset + p.limit)}>
          {t('kit.next')}
        </Button>
      </Group>
    </Group>
  );
}
