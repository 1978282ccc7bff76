import { Badge, Box, Button, Card, Center, Group, Loader, Modal, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useId, useState, type ReactNode } from 'react';
import { z } from 'zod';
import { formatDateTime, formatNaira } from '../app/format';
import { Failure } from '../components/Failure';
import { showServerIssues, useSchemaForm } from '../components/form';

/** The console's building blocks: a screen's heading, server-paged tables, status badges, a reason dialog. */
export const money = (n: number | null | undefined) => (n === null || n === undefined ? '—' : formatNaira(n));
export const when = (iso: string | null | undefined) => (iso ? formatDateTime(iso) : '—');

export function ScreenTitle({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Group justify="space-between" align="center" wrap="wrap">
      <Title order={1} size="h2">
        {title}
      </Title>
      {children && <Group gap="xs">{children}</Group>}
    </Group>
  );
}

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <Center p="lg">
      <Loader role="status" aria-label={label} />
    </Center>
  );
}

/** A read's state: the spinner, the failure in words, or the content. */
export function Loaded<T>({
  query,
  children,
}: {
  query: { data?: T; error: unknown; isPending: boolean };
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.error) return <Failure error={query.error} />;
  return <Loading />;
}

const COLORS: Record<string, string> = {
  pending: 'yellow',
  awaiting: 'yellow',
  processing: 'yellow',
  queued: 'yellow',
  running: 'blue',
  open: 'blue',
  scheduled: 'blue',
  active: 'green',
  approved: 'green',
  success: 'green',
  fulfilled: 'green',
  resolved: 'green',
  done: 'green',
  settled: 'green',
  credited: 'green',
  repaid: 'green',
  rejected: 'red',
  failed: 'red',
  cancelled: 'gray',
  expired: 'gray',
  ended: 'gray',
  closed: 'gray',
  overdue: 'red',
  frozen: 'red',
  suspended: 'red',
  revoked: 'gray',
  disabled: 'red',
};
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge variant="light" color={COLORS[status] ?? 'gray'}>
      {status.replace(/_/g, ' ')}
    </Badge>
  );
}

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
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  if (p.rows.length === 0) return <Text c="dimmed">{p.empty ?? 'Nothing here.'}</Text>;
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
  const sortable = p.columns.filter((c) => c.sort);
  return (
    <Stack gap="xs">
      {sortable.length > 0 && (
        <Group gap="xs" role="group" aria-label={`Sort ${p.caption}`}>
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
  if (p.offset === 0 && !p.hasMore) return null;
  return (
    <Group justify="space-between" component="nav" aria-label="Pages">
      <Text size="sm" c="dimmed">
        {p.count === 0 ? 'No rows' : `Rows ${p.offset + 1}–${p.offset + p.count}`}
      </Text>
      <Group gap="xs">
        <Button variant="default" size="xs" disabled={p.offset === 0} onClick={() => p.onChange(Math.max(0, p.offset - p.limit))}>
          Previous page
        </Button>
        <Button variant="default" size="xs" disabled={!p.hasMore} onClick={() => p.onChange(p.offset + p.limit)}>
          Next page
        </Button>
      </Group>
    </Group>
  );
}

/** The reasons operators give (3 to 500 characters, as the service's review and resolution operations accept). */
const reasonRule = (min: number) => z.string().trim().min(min).max(500);
const reasonSchema = (min: number, optional: boolean) =>
  z.object({
    reason: optional
      ? z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), reasonRule(min).optional())
      : reasonRule(min),
  });

/**
 * A dialog that asks for a reason (required unless `optional`) and runs the action with it; the service's refusal
 * shows in the dialog, under the field when it names it.
 */
export function ReasonDialog(p: {
  opened: boolean;
  title: string;
  label?: string;
  confirm: string;
  color?: string;
  optional?: boolean;
  /** The fewest characters the operation accepts (3 unless it says otherwise). */
  min?: number;
  children?: ReactNode;
  onClose: () => void;
  onConfirm: (reason: string | undefined) => Promise<unknown>;
}) {
  const form = useSchemaForm(reasonSchema(p.min ?? 3, p.optional ?? false), { reason: '' });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const close = () => {
    form.reset();
    setError(null);
    p.onClose();
  };
  return (
    <Modal opened={p.opened} onClose={close} title={p.title} closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        id={id}
        onSubmit={form.onSubmit(async ({ reason }) => {
          setBusy(true);
          setError(null);
          try {
            await p.onConfirm(reason.trim() === '' ? undefined : reason.trim());
            close();
          } catch (err) {
            if (!showServerIssues(form, err)) setError(err);
          } finally {
            setBusy(false);
          }
        })}
      >
        <Stack>
          {p.children}
          <Textarea
            label={p.label ?? (p.optional ? 'Note (optional)' : 'Reason')}
            required={!p.optional}
            autosize
            minRows={2}
            data-autofocus
            {...form.getInputProps('reason')}
          />
          <Failure error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color={p.color} loading={busy}>
              {p.confirm}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
