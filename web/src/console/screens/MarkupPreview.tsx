import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  const r = p.review;
  const n = r?.preview.changes.length ?? 0;
  return (
    <Modal
      opened={r !== null}
      onClose={p.onCancel}
      title={t('console.markupPreview.title')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('console.markupPreview.close') }}
    >
      {r && (
        <Stack>
          <Text size="sm" role="status">
            {n === 0
              ? t('console.markupPreview.noChanges', { provider: r.preview.provider.toUpperCase() })
              : t('console.markupPreview.changes', { count: n, provider: r.preview.provider.toUpperCase() })}
          </Text>
          {n > 0 && (
            <DataTable
              caption={t('console.markupPreview.caption')}
              rows={r.preview.changes}
              rowKey={(c) => `${c.plan ?? ''}-${c.network ?? ''}-${c.name}`}
              columns={[
                { header: t('console.markupPreview.plan'), cell: (c) => (c.network ? `${c.network.toUpperCase()} ${c.name}` : c.name) },
                { header: t('console.markupPreview.wholesale'), cell: (c) => money(c.wholesale) },
                { header: t('console.markupPreview.oldPrice'), cell: (c) => money(c.before) },
                { header: t('console.markupPreview.newPrice'), cell: (c) => money(c.after) },
              ]}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={p.onCancel}>
              {t('console.markupPreview.cancel')}
            </Button>
            <Button onClick={() => p.onConfirm(r.draft)}>{t('console.markupPreview.setMarkup')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
