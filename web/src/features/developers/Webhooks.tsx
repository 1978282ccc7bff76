import { Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey, post } from '../../api/client';
import { developerQueries } from '../../api/queries/developers';
import { formatDateTime } from '../../app/format';
import { Failure } from '../../components/Failure';

/**
 * The developer page's webhooks (issue 45): endpoints (each takes every event; the signing secret shown once), the
 * delivery log, resend.
 */
export function Webhooks({ onSecret }: { onSecret: (secret: string) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const endpoints = useQuery(developerQueries.endpoints());
  const deliveries = useQuery(developerQueries.deliveries());
  const [url, setUrl] = useState('');
  const refresh = () => void qc.invalidateQueries({ queryKey: developerQueries.all() });
  const opts = () => ({ idempotencyKey: newIdempotencyKey() });
  const add = useMutation({
    mutationFn: () =>
      post(
        '/_serverFn/createWebhookEndpointBearerDevelopers',
        { url, events: ['purchase.succeeded', 'purchase.failed', 'purchase.refunded', 'wallet.credited', 'epin.batch_ready'] },
        opts(),
      ),
    onSuccess: (r) => (setUrl(''), onSecret(r.secret), refresh()),
  });
  const disable = useMutation({
    mutationFn: (id: string) => post('/_serverFn/disableWebhookEndpointBearerDevelopers', { id }, opts()),
    onSuccess: refresh,
  });
  const resend = useMutation({
    mutationFn: (id: string) => post('/_serverFn/resendWebhookDeliveryBearerDevelopers', { id }, opts()),
    onSuccess: refresh,
  });
  return (
    <Stack gap="xs">
      <Title order={3}>{t('developers.webhooks')}</Title>
      <Text size="sm">{t('developers.webhooksHelp')}</Text>
      <Failure error={endpoints.error ?? add.error ?? disable.error ?? resend.error} />
      {(endpoints.data ?? []).map((e) => (
        <Paper key={e.id} p="xs" withBorder>
          <Group justify="space-between">
            <Stack gap={2}>
              <Text style={{ wordBreak: 'break-all' }}>{e.url}</Text>
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
      <form onSubmit={(ev) => (ev.preventDefault(), add.mutate())} noValidate>
        <Group align="end">
          <TextInput label={t('developers.webhookUrl')} value={url} onChange={(ev) => setUrl(ev.currentTarget.value)} style={{ flex: 1 }} />
          <Button type="submit" loading={add.isPending}>
            {t('developers.addEndpoint')}
          </Button>
        </Group>
      </form>
      <Title order={4}>{t('developers.deliveries')}</Title>
      {deliveries.data?.length === 0 && <Text c="dimmed">{t('developers.noDeliveries')}</Text>}
      {(deliveries.data ?? []).map((d) => (
        <Group key={d.id} justify="space-between" data-testid="webhook-delivery">
          <Text size="sm">
            {t('developers.deliveryLine', { event: d.eventType, status: d.status, attempts: d.attempts })}
            {d.responseStatus !== null ? ` · ${d.responseStatus} (${d.responseMs} ms)` : ''} · {formatDateTime(d.createdAt)}
          </Text>
          <Button size="xs" variant="subtle" onClick={() => resend.mutate(d.id)}>
            {t('developers.resend')}
          </Button>
        </Group>
      ))}
    </Stack>
  );
}
