import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { PostInput, PostOutput } from '../../api/client';
import { DataTable } from '../../components/DataTable';
import { money } from '../../app/format';
import * as ops from '../../api/operations';

export type MarkupDraft = PostInput<typeof ops.adminPreviewMarkup>;
export type MarkupPreview = PostOutput<typeof ops.adminPreviewMarkup>;

/**
 * A markup change's confirmation (issue 44): which prices change, old and new (adminPreviewMarkup), before the markup
 * is set; nothing changes until it is confirmed.
 */
export function MarkupConfirm(p: {
  review: { draft: MarkupDraft; preview: MarkupPreview } | null;
  onCancel: () => void;
  onConfirm: (draft: MarkupDraft) => void;
}) {
  const r = p.review;
  const n = r?.preview.changes.length ?? 0;
  return (
    <Modal opened={r !== null} onClose={p.onCancel} title="Confirm the markup" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      {r && (
        <Stack>
          <Text size="sm" role="status">
            {n === 0
              ? `No price changes at provider ${r.preview.provider.toUpperCase()}.`
              : `${n} price${n === 1 ? '' : 's'} change at provider ${r.preview.provider.toUpperCase()} (what customers pay):`}
          </Text>
          {n > 0 && (
            <DataTable
              caption="The prices that change, old and new"
              rows={r.preview.changes}
              rowKey={(c) => `${c.plan ?? ''}-${c.network ?? ''}-${c.name}`}
              columns={[
                { header: 'Plan', cell: (c) => (c.network ? `${c.network.toUpperCase()} ${c.name}` : c.name) },
                { header: 'Wholesale', cell: (c) => money(c.wholesale) },
                { header: 'Old price', cell: (c) => money(c.before) },
                { header: 'New price', cell: (c) => money(c.after) },
              ]}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={p.onCancel}>
              Cancel
            </Button>
            <Button onClick={() => p.onConfirm(r.draft)}>Set markup</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
