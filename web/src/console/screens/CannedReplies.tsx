import { Button, Card, Group, Modal, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { z } from 'zod';
import { post } from '../../api/client';
import { consoleQueries, adminQueries } from '../../api/queries/admin';
import { isCode } from '../../app/errors';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { fillName } from '../canned';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { when } from '../../app/format';
import * as ops from '../../api/operations';

// adminSaveCannedReply's title (1 to 60 characters) and body (1 to 2000).
const replySchema = z.object({ title: z.string().trim().min(1).max(60), body: z.string().trim().min(1).max(2000) });
type Saved = { id: string; title: string; body: string; updatedAt: string };

/** The "Saved replies" picker beside a thread's reply box: the chosen reply, {name} filled, goes into the box. */
export function SavedReplyPicker({ customerId, onPick }: { customerId?: string; onPick: (body: string) => void }) {
  const replies = useQuery(adminQueries.cannedReplies());
  const customer = useQuery({ ...consoleQueries.customer(customerId ?? ''), enabled: Boolean(customerId) });
  const items = replies.data?.items ?? [];
  return (
    <Select
      label="Saved replies"
      placeholder={items.length ? 'Choose a saved reply' : 'No saved replies'}
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
            Manage saved replies
          </Title>
          <Button size="xs" onClick={() => setEditing('new')}>
            Add saved reply
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {'{name}'} in a reply becomes the customer’s first name when it is put in the reply box.
        </Text>
        <Loaded query={replies}>
          {(data) => (
            <DataTable
              caption="Saved replies"
              rows={data.items}
              rowKey={(r) => r.id}
              empty="No saved replies yet."
              columns={[
                { header: 'Title', cell: (r) => r.title },
                { header: 'Reply', cell: (r) => (r.body.length > 80 ? `${r.body.slice(0, 77)}...` : r.body) },
                { header: 'Updated', cell: (r) => when(r.updatedAt) },
                {
                  header: 'Actions',
                  cell: (r) => (
                    <Group gap="xs" wrap="nowrap">
                      <Button size="compact-xs" variant="default" aria-label={`Edit ${r.title}`} onClick={() => setEditing(r)}>
                        Edit
                      </Button>
                      <Button
                        size="compact-xs"
                        variant="default"
                        color="red"
                        aria-label={`Delete ${r.title}`}
                        onClick={() => setDeleting(r)}
                      >
                        Delete
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
  const form = useSchemaForm(replySchema, { title: reply?.title ?? '', body: reply?.body ?? '' });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  return (
    <Modal opened onClose={onClose} title={reply ? `Edit ${reply.title}` : 'Add saved reply'} closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        id={id}
        onSubmit={form.onSubmit(async ({ title, body }) => {
          setBusy(true);
          setError(null);
          try {
            await post(ops.adminSaveCannedReply, {
              ...(reply ? { id: reply.id } : {}),
              title: title.trim(),
              body: body.trim(),
            });
            await onSaved();
            onClose();
          } catch (err) {
            // 409: another reply has this title (regardless of case); said under the title.
            if (isCode(err, 'CONFLICT')) form.setFieldError('title', 'A saved reply with this title already exists');
            else if (!showServerIssues(form, err)) setError(err);
          } finally {
            setBusy(false);
          }
        })}
      >
        <Stack>
          <TextInput label="Title" required maxLength={60} data-autofocus {...form.getInputProps('title')} />
          <Textarea
            label="Reply text"
            required
            autosize
            minRows={4}
            description="{name}: the customer’s first name"
            {...form.getInputProps('body')}
          />
          <Failure error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Save reply
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function DeleteDialog({ reply, onClose, onDeleted }: { reply: Saved | null; onClose: () => void; onDeleted: () => Promise<unknown> }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <Modal opened={reply !== null} onClose={close} title={`Delete ${reply?.title ?? ''}`} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        <Text size="sm">Operators will no longer be able to pick this reply.</Text>
        <Failure error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={busy}
            onClick={async () => {
              setBusy(true);
              setError(null);
              try {
                await post(ops.adminDeleteCannedReply, { id: reply!.id });
                await onDeleted();
                close();
              } catch (err) {
                setError(err);
              } finally {
                setBusy(false);
              }
            }}
          >
            Delete reply
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
