import { Button, Card, Group, Modal, NumberInput, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { post, type PostInput, type PostOutput } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { when } from '../../app/format';
import * as ops from '../../api/operations';

type Draft = PostInput<typeof ops.adminPreviewBroadcast>;
type Preview = PostOutput<typeof ops.adminPreviewBroadcast>;

// adminCreateBroadcast's rules: title up to 120, body up to 2000, a poll's question up to 200 and 2-10 options of up to 100.
const broadcastSchema = z.object({
  title: z.string().trim().min(1).max(120),
  body: z.string().trim().min(1).max(2000),
  minKycTier: z.union([z.literal(''), z.number().int().min(0).max(3)]),
  // A Lagos wall-clock time (datetime-local), or empty for now.
  sendAt: z.string(),
  question: z.string().trim().max(200),
  options: z
    .string()
    .refine((v) => {
      const n = v.split('\n').filter((o) => o.trim()).length;
      return n === 0 || (n >= 2 && n <= 10);
    }, 'A poll needs 2 to 10 options, one per line')
    .refine((v) => v.split('\n').every((o) => o.trim().length <= 100), 'Each option is at most 100 characters'),
});
type Values = z.infer<typeof broadcastSchema>;

/** A datetime-local value read as Lagos time (UTC+1, no daylight saving) as an ISO date-time. */
export const lagosInstant = (local: string) => `${local.length === 16 ? `${local}:00` : local}+01:00`;

function draftOf(v: Values): Draft {
  const options = v.options
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);
  return {
    title: v.title.trim(),
    body: v.body.trim(),
    audience: v.minKycTier !== '' ? { minKycTier: v.minKycTier } : {},
    ...(v.sendAt ? { startsAt: lagosInstant(v.sendAt) } : {}),
    ...(options.length ? { poll: { options, ...(v.question.trim() ? { question: v.question.trim() } : {}) } } : {}),
  };
}

/**
 * A new broadcast (issue 44): the form asks for a preview first, the message as customers will see it, how many
 * customers the audience holds and when it shows (now, or a Lagos time); only the confirmation creates it.
 */
export function NewBroadcast() {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [review, setReview] = useState<{ draft: Draft; preview: Preview } | null>(null);
  const form = useSchemaForm(broadcastSchema, {
    title: '',
    body: '',
    minKycTier: '' as number | '',
    sendAt: '',
    question: '',
    options: '',
  });
  async function confirm(draft: Draft) {
    setBusy(true);
    setError(null);
    try {
      await post(ops.adminCreateBroadcast, draft);
      setReview(null);
      form.reset();
      setOpen(false);
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'broadcasts'] });
    } catch (err) {
      setReview(null);
      if (!showServerIssues(form, err)) setError(err);
    } finally {
      setBusy(false);
    }
  }
  if (!open)
    return (
      <Group>
        <Button onClick={() => setOpen(true)}>New broadcast</Button>
      </Group>
    );
  return (
    <Card withBorder component="section" aria-labelledby="new-broadcast">
      <form
        aria-label="New broadcast"
        onSubmit={form.onSubmit(async (v) => {
          setBusy(true);
          setError(null);
          try {
            const draft = draftOf(v);
            setReview({ draft, preview: await post(ops.adminPreviewBroadcast, draft) });
          } catch (err) {
            if (!showServerIssues(form, err)) setError(err);
          } finally {
            setBusy(false);
          }
        })}
      >
        <Stack>
          <Title order={2} size="h4" id="new-broadcast">
            New broadcast
          </Title>
          <TextInput label="Title" required {...form.getInputProps('title')} />
          <Textarea label="Message" required autosize minRows={3} {...form.getInputProps('body')} />
          <NumberInput
            label="Only customers of KYC tier (and up)"
            min={0}
            max={3}
            allowDecimal={false}
            {...form.getInputProps('minKycTier')}
          />
          <TextInput
            type="datetime-local"
            label="Send at (Lagos time; empty for now)"
            description="A later time schedules it: customers see it from then."
            {...form.getInputProps('sendAt')}
          />
          <TextInput label="Poll question (optional)" {...form.getInputProps('question')} />
          <Textarea label="Poll options, one per line (none for no poll)" autosize minRows={2} {...form.getInputProps('options')} />
          <Failure error={error} />
          <Group>
            <Button type="submit" loading={busy}>
              Preview
            </Button>
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
      <Modal
        opened={review !== null}
        onClose={() => setReview(null)}
        title="Confirm the broadcast"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {review && <Review {...review} busy={busy} onCancel={() => setReview(null)} onConfirm={() => void confirm(review.draft)} />}
      </Modal>
    </Card>
  );
}

function Review({
  preview: p,
  busy,
  onCancel,
  onConfirm,
}: {
  preview: Preview;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const who = `${p.audienceCount} customer${p.audienceCount === 1 ? '' : 's'}`;
  return (
    <Stack>
      <Text size="sm">As customers will see it:</Text>
      <Card withBorder component="figure" aria-label="The message as customers see it" m={0}>
        <Text fw={700}>{p.message.title}</Text>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {p.message.body}
        </Text>
        {p.message.poll && (
          <Stack gap={2} mt="xs">
            <Text size="sm" fw={600}>
              {p.message.poll.question}
            </Text>
            {p.message.poll.options.map((o) => (
              <Text key={o} size="sm">
                ○ {o}
              </Text>
            ))}
          </Stack>
        )}
      </Card>
      <Text size="sm" role="status">
        Goes to {who} in the audience now; {p.scheduled ? `shows from ${when(p.startsAt)} (Lagos time).` : 'shows now.'}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Back
        </Button>
        <Button onClick={onConfirm} loading={busy}>
          {p.scheduled ? `Schedule for ${who}` : `Send to ${who}`}
        </Button>
      </Group>
    </Stack>
  );
}
