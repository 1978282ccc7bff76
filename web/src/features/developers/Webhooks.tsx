import { Badge, Button, Group, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '../../api/client';
import { developerQueries, type WebhookMode } from '../../api/queries/developers';
import { webhookEndpointSchema } from '../../api/schemas';
import { formatDateTime } from '../../app/format';
import { DataTable } from '../../components/DataTable';
import { Failure } from '../../components/Failure';
import { Loaded } from '../../components/Loaded';
import { StatusBadge } from '../../components/StatusBadge';
import { showServerIssues, useSchemaForm, type FieldHints } from '../../components/form';
import { Secret } from './Secret';
import * as api from '../../api/calls';

const EVENTS = ['purchase.succeeded', 'purchase.failed', 'purchase.refunded', 'wallet.credited', 'epin.batch_ready'] as const;
const MODES: WebhookMode[] = ['test', 'live'];
const HINTS: FieldHints = { url: 'developers.webhookUrlHint' };

function ModeBadge({ mode }: { mode: WebhookMode }) {
  const { t } = useTranslation();
  return <Badge color={mode === 'live' ? 'green' : 'gray'}>{mode === 'live' ? t('developers.modeLive') : t('developers.modeTest')}</Badge>;
}

/** One mode's delivery log: test endpoints get only test keys' events, live endpoints only live ones. */
function Deliveries({ mode, onResend }: { mode: WebhookMode; onResend: (id: string) => void }) {
  const { t } = useTranslation();
  const deliveries = useQuery(developerQueries.deliveries(mode));
  return (
    <Stack gap={4} component="section" aria-label={mode === 'live' ? t('developers.deliveriesLive') : t('developers.deliveriesTest')}>
      <Title order={4}>{mode === 'live' ? t('developers.deliveriesLive') : t('developers.deliveriesTest')}</Title>
      <Loaded query={deliveries}>
        {(rows) => (
          <DataTable
            caption={mode === 'live' ? t('developers.deliveriesLive') : t('developers.deliveriesTest')}
            empty={t('developers.noDeliveries')}
            rows={rows}
            rowKey={(d) => d.id}
            columns={[
              { header: t('developers.deliveryEvent'), cell: (d) => d.eventType },
              { header: t('developers.deliveryStatus'), cell: (d) => <StatusBadge status={d.status} /> },
              { header: t('developers.deliveryAttempts'), cell: (d) => d.attempts },
              {
                header: t('developers.deliveryAnswer'),
                cell: (d) => (d.responseStatus !== null ? `${d.responseStatus} (${d.responseMs} ms)` : '—'),
              },
              { header: t('developers.deliveryWhen'), cell: (d) => formatDateTime(d.createdAt) },
              {
                header: t('developers.deliveryAction'),
                cell: (d) => (
                  <Button size="xs" variant="subtle" onClick={() => onResend(d.id)}>
                    {t('developers.resend')}
                  </Button>
                ),
              },
            ]}
          />
        )}
      </Loaded>
    </Stack>
  );
}

/**
 * The developer page's webhooks (issue 45): endpoints of either mode, labelled (each takes every event; the signing
 * secret shown once), and each mode's delivery log with resend.
 */
export function Webhooks() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const endpoints = useQuery(developerQueries.endpoints());
  const form = useSchemaForm(webhookEndpointSchema, { url: '', mode: 'test' as WebhookMode }, HINTS);
  const [underFields, setUnderFields] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: developerQueries.all() });
  const opts = () => ({ idempotencyKey: newIdempotencyKey() });
  const add = useMutation({
    mutationFn: (v: { url: string; mode: WebhookMode }) =>
      api.createWebhookEndpoint({ url: v.url, events: [...EVENTS], mode: v.mode }, opts()),
    onSuccess: (r) => (form.setFieldValue('url', ''), setSecret(r.secret), refresh()),
    onError: (err) => setUnderFields(showServerIssues(form, err, HINTS)),
  });
  const disable = useMutation({
    mutationFn: (id: string) => api.disableWebhookEndpoint({ id }, opts()),
    onSuccess: refresh,
  });
  const resend = useMutation({
    mutationFn: (id: string) => api.resendWebhookDelivery({ id }, opts()),
    onSuccess: refresh,
  });
  return (
    <Stack gap="xs">
      <Title order={3}>{t('developers.webhooks')}</Title>
      <Text size="sm">{t('developers.webhooksHelp')}</Text>
      <Text size="sm">{t('developers.webhookModes')}</Text>
      {secret && <Secret secret={secret} title={t('developers.webhookSecretOnce')} label={t('developers.webhookSecret')} />}
      <Failure error={endpoints.error ?? (underFields ? null : add.error) ?? disable.error ?? resend.error} />
      {(endpoints.data ?? []).map((e) => (
        <Paper key={e.id} p="xs" withBorder>
          <Group justify="space-between">
            <Stack gap={2}>
              <Group gap="xs">
                <ModeBadge mode={e.mode} />
                <Text style={{ wordBreak: 'break-all' }}>{e.url}</Text>
              </Group>
              <Text size="xs" c="dimmed">
                {e.events.join(', ')}
              </Text>
            </Stack>
            {e.status === 'active' ? (
              <Button size="xs" variant="light" color="red" onClick={() => disable.mutate(e.id)}>
                {t('developers.disable')}
              </Button>
            ) : (
              <Badge color="red">{t('developers.disabled')}</Badge>
            )}
          </Group>
        </Paper>
      ))}
      <form onSubmit={form.onSubmit((v) => add.mutate(v))} noValidate aria-label={t('developers.addEndpoint')}>
        <Stack gap="xs">
          <SegmentedControl
            aria-label={t('developers.endpointMode')}
            {...form.getInputProps('mode')}
            data={MODES.map((m) => ({ value: m, label: m === 'live' ? t('developers.live') : t('developers.test') }))}
          />
          <Group align="end">
            <TextInput label={t('developers.webhookUrl')} type="url" {...form.getInputProps('url')} style={{ flex: 1 }} />
            <Button type="submit" loading={add.isPending}>
              {t('developers.addEndpoint')}
            </Button>
          </Group>
        </Stack>
      </form>
      <Title order={3}>{t('developers.deliveries')}</Title>
      {MODES.map((m) => (
        <Deliveries key={m} mode={m} onResend={(id) => resend.mutate(id)} />
      ))}
    </Stack>
  );
}
