import { Badge } from '@mantine/core';

/** A status's colour: waiting yellow, under way blue, done green, refused or stopped red, ended gray. */
export const STATUS_COLORS: Record<string, string> = {
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
  succeeded: 'green',
  fulfilled: 'green',
  resolved: 'green',
  done: 'green',
  settled: 'green',
  credited: 'green',
  repaid: 'green',
  delivered: 'green',
  matured: 'green',
  partial: 'yellow',
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
  broken: 'gray',
  disabled: 'red',
};
/** A status as a badge: its colour from STATUS_COLORS, its words `label` (the caller's translation) or the status itself. */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return (
    <Badge variant="light" color={STATUS_COLORS[status] ?? 'gray'}>
      {label ?? status.replace(/_/g, ' ')}
    </Badge>
  );
}
