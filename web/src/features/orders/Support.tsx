import { Button, NativeSelect, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouterState } from '@tanstack/react-router';

import { newIdempotencyKey, type PostInput } from '../../api/client';

import { formatDateTime } from '../../app/format';
import { Failure } from '../../components/Failure';
import { Section } from '../../components/Section';
import { supportQueries } from '../../api/queries/orders';
import { reportSchema, supportMessageSchema } from '../../api/schemas';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { capitalised } from '../../app/catalogue-labels';
import * as ops from '../../api/operations';
import * as api from '../../api/calls';
import { StatusBadge } from '../../components/StatusBadge';

/** Orders and help: marketplace and subscription orders, scheduled purchases, support chat, reporting an issue. */
export function Support() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const thread = useQuery(supportQueries.thread());
  const threadId = thread.data?.id;
  const messages = useQuery({
    ...supportQueries.messages(threadId),
    refetchInterval: 15_000,
  });
  // sendSupportMessage's own rule (api/schemas.ts): a message, at most 4,000 characters.
  const form = useSchemaForm(supportMessageSchema, { body: '' });
  const [underFields, setUnderFields] = useState(false);
  const send = useMutation({
    mutationFn: (body: string) => api.sendSupportMessage({ threadId: threadId!, body }, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: () => (form.reset(), void qc.invalidateQueries({ queryKey: supportQueries.messages(threadId).queryKey })),
    onError: (err) => setUnderFields(showServerIssues(form, err)),
  });
  return (
    <Section id="support" title={t('orders.support')}>
      <Failure error={thread.error ?? messages.error ?? (underFields ? null : send.error)} />
      <Stack gap="xs" role="log" aria-label={t('orders.conversation')} mah={360} style={{ overflowY: 'auto' }}>
        {(messages.data?.items ?? []).map((m) => (
          <Paper
            key={m.id}
            p="xs"
            withBorder
            bg={m.author === 'user' ? 'brand.0' : undefined}
            ml={m.author === 'user' ? 'xl' : 0}
            mr={m.author === 'user' ? 0 : 'xl'}
          >
            <Text size="xs" c="dimmed">
              {m.author === 'user' ? t('orders.you') : t('orders.agent')} · {formatDateTime(m.createdAt)}
            </Text>
            <Text style={{ whiteSpace: 'pre-wrap' }}>{m.body}</Text>
          </Paper>
        ))}
      </Stack>
      <form
        onSubmit={form.onSubmit((v) => {
          const c = supportMessageSchema.safeParse(v);
          if (c.success) send.mutate(c.data.body);
        })}
        noValidate
      >
        <Stack gap="xs">
          <Textarea label={t('orders.message')} autosize minRows={2} maxLength={4000} {...form.getInputProps('body')} />
          <Button type="submit" loading={send.isPending} disabled={!threadId}>
            {t('transfer.send')}
          </Button>
        </Stack>
      </form>
    </Section>
  );
}

type ReportCategory = NonNullable<PostInput<typeof ops.createTransactionReport>>['category'];
// The categories the service accepts, in the form's order: a Record over the API's own type, so a category added to
// or removed from the service fails the app's typecheck instead of drifting.
const CATEGORY_SET: Record<ReportCategory, true> = {
  not_delivered: true,
  failed_not_refunded: true,
  wrong_amount: true,
  wrong_recipient: true,
  duplicate_charge: true,
  unauthorised: true,
  other: true,
};
const CATEGORIES = Object.keys(CATEGORY_SET) as ReportCategory[];

export function Report() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const mine = useQuery(supportQueries.reports());
  const [category, setCategory] = useState<ReportCategory>('not_delivered');
  // "Get help" on a purchase still processing opens this with its reference (/orders?report=<reference>#report).
  const asked = useRouterState({ select: (s) => (s.location.search as { report?: unknown }).report });
  const prefilled = typeof asked === 'string' ? asked : '';
  // createTransactionReport's own rules (api/schemas.ts).
  const form = useSchemaForm(reportSchema, { reference: prefilled, description: '' });
  const [underFields, setUnderFields] = useState(false);
  const create = useMutation({
    mutationFn: (fields: { reference: string; description: string }) =>
      api.createTransactionReport({ ...fields, category }, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: () => (form.reset(), void qc.invalidateQueries({ queryKey: supportQueries.reports().queryKey })),
    onError: (err) => setUnderFields(showServerIssues(form, err)),
  });
  const submit = form.onSubmit((values) => {
    const checked = reportSchema.safeParse(values);
    if (checked.success) create.mutate(checked.data);
  });
  return (
    <Section id="report" title={t('orders.report')}>
      <Failure error={mine.error ?? (underFields ? null : create.error)} />
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={t('result.reference')} {...form.getInputProps('reference')} />
          <NativeSelect
            label={t('orders.category')}
            value={category}
            onChange={(e) => setCategory(e.currentTarget.value as typeof category)}
            data={CATEGORIES.map((c) => ({ value: c, label: t(`orders.cat_${c}`) }))}
          />
          <Textarea label={t('orders.whatHappened')} autosize minRows={2} maxLength={2000} {...form.getInputProps('description')} />
          <Button type="submit" loading={create.isPending}>
            {t('orders.sendReport')}
          </Button>
        </Stack>
      </form>
      {(mine.data?.items ?? []).map((r) => (
        <Text key={r.id} size="sm">
          {r.reference} · {t(`orders.cat_${r.category}`)} ·{' '}
          <StatusBadge
            status={r.status}
            label={t(`orders.report_${r.status}` as 'orders.report_open', { defaultValue: capitalised(r.status) })}
          />
          {r.resolutionNote ? ` · ${r.resolutionNote}` : ''}
        </Text>
      ))}
    </Section>
  );
}
