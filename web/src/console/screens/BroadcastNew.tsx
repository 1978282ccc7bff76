import { Button, Card, Group, Modal, NumberInput, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { type PostInput, type PostOutput } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import i18next from 'i18next';
import { showServerIssues, useSchemaForm, type FieldHints } from '../../components/form';
import { when } from '../../app/format';
import * as ops from '../../api/operations';
import * as api from '../../api/calls';

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
    .refine(
      (v) => {
        const n = v.split('\n').filter((o) => o.trim()).length;
        return n === 0 || (n >= 2 && n <= 10);
      },
      { params: { rule: 'count' } },
    )
    .refine((v) => v.split('\n').every((o) => o.trim().length <= 100), { params: { rule: 'length' } }),
});
type Values = z.infer<typeof broadcastSchema>;
// The poll's options' two rules in words.
const HINTS: FieldHints = {
  options: (issue) =>
    issue.code !== 'custom'
      ? undefined
      : i18next.t(issue.params?.rule === 'length' ? 'console.broadcastNew.optionLength' : 'console.broadcastNew.optionCount'),
};

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
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [review, setReview] = useState<{ draft: Draft; preview: Preview } | null>(null);
  const form = useSchemaForm(
    broadcastSchema,
    {
      title: '',
      body: '',
      minKycTier: '' as number | '',
      sendAt: '',
      question: '',
      options: '',
    },
    HINTS,
  );
  async function confirm(draft: Draft) {
    setBusy(true);
    setError(null);
    try {
      await api.adminCreateBroadcast(draft);
      setReview(null);
      form.reset();
      setOpen(false);
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'broadcasts'] });
    } catch (err) {
      setReview(null);
      if (!showServerIssues(form, err, HINTS)) setError(err);
    } finally {
      setBusy(false);
    }
  }
  if (!open)
    return (
      <Group>
        <Button onClick={() => setOpen(true)}>{t('console.broadcastNew.open')}</Button>
      </Group>
    );
  return (
    <Card withBorder component="section" aria-labelledby="new-broadcast">
      <form
        noValidate
        aria-label={t('console.broadcastNew.open')}
        onSubmit={form.onSubmit(async (v) => {
          setBusy(true);
          setError(null);
          try {
            const draft = draftOf(v);
            setReview({ draft, preview: await api.adminPreviewBroadcast(draft) });
          } catch (err) {
            if (!showServerIssues(form, err, HINTS)) setError(err);
          } finally {
            setBusy(false);
          }
        })}
      >
        <Stack>
          <Title order={2} size="h4" id="new-broadcast">
            {t('console.broadcastNew.open')}
          </Title>
          <TextInput label={t('console.broadcastNew.title')} required {...form.getInputProps('title')} />
          <Textarea label={t('console.broadcastNew.message')} required autosize minRows={3} {...form.getInputProps('body')} />
          <NumberInput label={t('console.broadcastNew.tier')} min={0} max={3} allowDecimal={false} {...form.getInputProps('minKycTier')} />
          <TextInput
            type="datetime-local"
            label={t('console.broadcastNew.sendAt')}
            description={t('console.broadcastNew.sendAtHint')}
            {...form.getInputProps('sendAt')}
          />
          <TextInput label={t('console.broadcastNew.question')} {...form.getInputProps('question')} />
          <Textarea label={t('console.broadcastNew.options')} autosize minRows={2} {...form.getInputProps('options')} />
          <Failure error={error} />
          <Group>
            <Button type="submit" loading={busy}>
              {t('console.broadcastNew.preview')}
            </Button>
            <Button variant="default" onClick={() => setOpen(false)}>
              {t('console.broadcastNew.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
      <Modal
        opened={review !== null}
        onClose={() => setReview(null)}
        title={t('console.broadcastNew.confirm')}
        closeButtonProps={{ 'aria-label': t('console.broadcastNew.close') }}
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
  const { t } = useTranslation();
  const who = t('console.broadcastNew.customers', { count: p.audienceCount });
  return (
    <Stack>
      <Text size="sm">{t('console.broadcastNew.asSeen')}</Text>
      <Card withBorder component="figure" aria-label={t('console.broadcastNew.figure')} m={0}>
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
        {t('console.broadcastNew.goesTo', {
          who,
          shows: p.scheduled ? t('console.broadcastNew.showsFrom', { when: when(p.startsAt) }) : t('console.broadcastNew.showsNow'),
        })}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('console.broadcastNew.back')}
        </Button>
        <Button onClick={onConfirm} loading={busy}>
          {t(p.scheduled ? 'console.broadcastNew.schedule' : 'console.broadcastNew.send', { who })}
        </Button>
      </Group>
    </Stack>
  );
}
