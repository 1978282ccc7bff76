import { Button, Card, Group, Modal, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { consoleQueries, adminQueries } from '../../api/queries/admin';
import { isCode } from '../../app/errors';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { fillName } from '../canned';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { when } from '../../app/format';
import * as api from '../../api/calls';

// adminSaveCannedReply's title (1 to 60 characters) and body (1 to 2000).
const replySchema = z.object({ title: z.string().trim().min(1).max(60), body: z.string().trim().min(1).max(2000) });
type Saved = { id: string; title: string; body: string; updatedAt: string };

/** The "Saved replies" picker beside a thread's reply box: the chosen reply, {name} filled, goes into the box. */
export function SavedReplyPicker({ customerId, onPick }: { customerId?: string; onPick: (body: string) => void }) {
  const { t } = useTranslation();
  const replies = useQuery(adminQueries.cannedReplies());
  const customer = useQuery({ ...consoleQueries.customer(customerId ?? ''), enabled: Boolean(customerId) });
  const items = replies.data?.items ?? [];
  return (
    <Select
      label={t('console.cannedReplies.savedReplies')}
      placeholder={items.length ? t('console.cannedReplies.choose') : t('console.cannedReplies.none')}
      data={items.map((r) => ({ value: r.id, label: r.title }))}
      value={null}
      disabled={items.length === 0}
      searchable
      onChange={(id) => {
        const reply = items.find((r) => r.id === id);
        if (reply) onPick(fillName(reply.body, customer.data?.profile.fullName));
      }}
    />
  );
}

/** Admins' list of saved replies: add, edit, delete (support operators only use them). */
export function CannedRepliesManager() {
  const { t } = useTranslation();
  const replies = useQuery(adminQueries.cannedReplies());
  const qc = useQueryClient();
  const [editing, setEditing] = useState<Saved | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Saved | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'support', 'canned'] });
  return (
    <Card withBorder component="section" aria-labelledby="canned-title">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h4" id="canned-title">
            {t('console.cannedReplies.manage')}
          </Title>
          <Button size="xs" onClick={() => setEditing('new')}>
            {t('console.cannedReplies.add')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('console.cannedReplies.nameHint')}
        </Text>
        <Loaded query={replies}>
          {(data) => (
            <DataTable
              caption={t('console.cannedReplies.savedReplies')}
              rows={data.items}
              rowKey={(r) => r.id}
              empty={t('console.cannedReplies.empty')}
              columns={[
                { header: t('console.cannedReplies.title'), cell: (r) => r.title },
                { header: t('console.cannedReplies.reply'), cell: (r) => (r.body.length > 80 ? `${r.body.slice(0, 77)}...` : r.body) },
                { header: t('console.cannedReplies.updated'), cell: (r) => when(r.updatedAt) },
                {
                  header: t('console.cannedReplies.actions'),
                  cell: (r) => (
                    <Group gap="xs" wrap="nowrap">
                      <Button
                        size="compact-xs"
                        variant="default"
                        aria-label={t('console.cannedReplies.editLabel', { title: r.title })}
                        onClick={() => setEditing(r)}
                      >
                        {t('console.cannedReplies.edit')}
                      </Button>
                      <Button
                        size="compact-xs"
                        variant="default"
                        color="red"
                        aria-label={t('console.cannedReplies.deleteLabel', { title: r.title })}
                        onClick={() => setDeleting(r)}
                      >
                        {t('console.cannedReplies.delete')}
                      </Button>
                    </Group>
                  ),
                },
              ]}
            />
          )}
        </Loaded>
      </Stack>
      {editing && <ReplyForm reply={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={refresh} />}
      <DeleteDialog reply={deleting} onClose={() => setDeleting(null)} onDeleted={refresh} />
    </Card>
  );
}

function ReplyForm({ reply, onClose, onSaved }: { reply: Saved | null; onClose: () => void; onSaved: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const form = useSchemaForm(replySchema, { title: reply?.title ?? '', body: reply?.body ?? '' });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  return (
    <Modal
      opened
      onClose={onClose}
      title={reply ? t('console.cannedReplies.editLabel', { title: reply.title }) : t('console.cannedReplies.add')}
      closeButtonProps={{ 'aria-label': t('console.cannedReplies.close') }}
    >
      <form
        noValidate
        id={id}
        onSubmit={form.onSubmit(async ({ title, body }) => {
          setBusy(true);
          setError(null);
          try {
            await api.adminSaveCannedReply({
              ...(reply ? { id: reply.id } : {}),
              title: title.trim(),
              body: body.trim(),
            });
            await onSaved();
            onClose();
          } catch (err) {
            // 409: another reply has this title (regardless of case); said under the title.
            if (isCode(err, 'CONFLICT')) form.setFieldError('title', t('console.cannedReplies.titleTaken'));
            else if (!showServerIssues(form, err)) setError(err);
          } finally {
            setBusy(false);
          }
        })}
      >
        <Stack>
          <TextInput label={t('console.cannedReplies.title')} required maxLength={60} data-autofocus {...form.getInputProps('title')} />
          <Textarea
            label={t('console.cannedReplies.replyText')}
            required
            autosize
            minRows={4}
            description={t('console.cannedReplies.replyTextHint')}
            {...form.getInputProps('body')}
          />
          <Failure error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('console.cannedReplies.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('console.cannedReplies.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function DeleteDialog({ reply, onClose, onDeleted }: { reply: Saved | null; onClose: () => void; onDeleted: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <Modal
      opened={reply !== null}
      onClose={close}
      title={t('console.cannedReplies.deleteLabel', { title: reply?.title ?? '' })}
      closeButtonProps={{ 'aria-label': t('console.cannedReplies.close') }}
    >
      <Stack>
        <Text size="sm">{t('console.cannedReplies.deleteBody')}</Text>
        <Failure error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('console.cannedReplies.cancel')}
          </Button>
          <Button
            color="red"
            loading={busy}
            onClick={async () => {
              setBusy(true);
              setError(null);
              try {
                await api.adminDeleteCannedReply({ id: reply!.id });
                await onDeleted();
                close();
              } catch (err) {
                setError(err);
              } finally {
                setBusy(false);
              }
            }}
          >
            {t('console.cannedReplies.deleteReply')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
