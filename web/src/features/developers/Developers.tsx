import {
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey, type PostInput } from '../../api/client';
import { developerQueries } from '../../api/queries/developers';
import { growthQueries } from '../../api/queries/growth';
import { addressLines, apiKeySchema } from '../../api/schemas';
import { formatDateTime, formatNaira } from '../../app/format';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm, type FieldHints } from '../../components/form';
import { Section } from '../../components/Section';
import { Secret } from './Secret';
import { FirstPurchase, Usage } from './Usage';
import { Webhooks } from './Webhooks';
import * as ops from '../../api/operations';
import * as api from '../../api/calls';

/**
 * The developer page (issue 45): the customer's API keys (create, revoke, roll; the secret shown once) and a curl line
 * for the first purchase by key.
 */
type NewKey = PostInput<typeof ops.createApiKey>;
type Scope = NewKey['scopes'][number];
const SCOPES: Scope[] = ['read', 'purchase', 'transfer'];

/** The rules' sentences for the fields whose kind-and-bounds words say too little. */
const HINTS: FieldHints = {
  ips: 'developers.allowedIpsHint',
  dailyLimit: () => i18next.t('app.amountRange', { min: formatNaira(1), max: formatNaira(100_000_000) }),
  scopes: 'developers.scopesHint',
};

function CreateKey({ onMade }: { onMade: (secret: string) => void }) {
  const { t } = useTranslation();
  const form = useSchemaForm(
    apiKeySchema,
    { name: '', mode: 'test' as NewKey['mode'], scopes: ['read', 'purchase'] as Scope[], ips: '', dailyLimit: '' as number | '' },
    HINTS,
  );
  const [underFields, setUnderFields] = useState(false);
  // Live keys need a price level that allows them (test keys any level): say which before the customer asks.
  const level = useQuery(growthQueries.level()).data;
  const allowing = level ? [level.level, ...level.above].filter((l) => l.apiKeys).map((l) => l.name) : [];
  const create = useMutation({
    mutationFn: (input: NewKey) => api.createApiKey(input, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: (r) => (form.reset(), onMade(r.secret)),
    onError: (err) => setUnderFields(showServerIssues(form, err, HINTS)),
  });
  const submit = form.onSubmit((v) => {
    const allowedIps = addressLines(v.ips);
    create.mutate({
      name: v.name,
      mode: v.mode,
      scopes: v.scopes,
      ...(allowedIps.length ? { allowedIps } : {}),
      ...(v.dailyLimit !== '' ? { dailyLimit: v.dailyLimit } : {}),
    });
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <Title order={3}>{t('developers.create')}</Title>
        <Failure error={underFields ? null : create.error} />
        <TextInput label={t('developers.name')} maxLength={60} {...form.getInputProps('name')} />
        <SegmentedControl
          aria-label={t('developers.mode')}
          {...form.getInputProps('mode')}
          data={[
            { value: 'test', label: t('developers.test') },
            { value: 'live', label: t('developers.live') },
          ]}
        />
        {form.values.mode === 'live' && level && !level.level.apiKeys && (
          <Text size="sm" role="note">
            {t('developers.liveNeedsLevel', { levels: allowing.join(', '), level: level.level.name })}
          </Text>
        )}
        <Checkbox.Group label={t('developers.scopes')} {...form.getInputProps('scopes')}>
          <Stack gap={4} mt={4}>
            {SCOPES.map((s) => (
              <Checkbox key={s} value={s} label={t(`developers.scope_${s}`)} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Textarea label={t('developers.allowedIps')} autosize minRows={1} {...form.getInputProps('ips')} />
        <NumberInput
          label={t('developers.dailyLimit')}
          inputMode="decimal"
          hideControls
          decimalScale={2}
          allowNegative={false}
          thousandSeparator=","
          {...form.getInputProps('dailyLimit')}
        />
        <Button type="submit" loading={create.isPending}>
          {t('developers.create')}
        </Button>
      </Stack>
    </form>
  );
}

const TEST_FUNDING = 5000;

/** Test mode's wallet: its balance and a button adding test money (the test world's, never live money). */
function TestWallet() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const balance = useQuery(developerQueries.testWallet());
  const fund = useMutation({
    mutationFn: () => api.fundTestWallet({ amount: TEST_FUNDING }, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: developerQueries.testWallet().queryKey }),
  });
  return (
    <Paper p="xs" withBorder>
      <Failure error={balance.error ?? fund.error} />
      <Group justify="space-between">
        <Stack gap={2}>
          <Text fw={600} data-testid="test-wallet">
            {t('developers.testWallet', { balance: formatNaira(balance.data ?? 0) })}
          </Text>
          <Text size="xs" c="dimmed">
            {t('developers.testWalletHelp')}
          </Text>
        </Stack>
        <Button size="xs" variant="light" onClick={() => fund.mutate()} loading={fund.isPending}>
          {t('developers.fund', { amount: formatNaira(TEST_FUNDING) })}
        </Button>
      </Group>
    </Paper>
  );
}

export function Developers() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const keys = useQuery(developerQueries.keys());
  const [secret, setSecret] = useState<string | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: developerQueries.all() });
  const revoke = useMutation({
    mutationFn: (id: string) => api.revokeApiKey({ id }, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: refresh,
  });
  const roll = useMutation({
    mutationFn: (id: string) => api.rollApiKey({ id, overlapHours: 24 }, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: (r) => (setSecret(r.secret), refresh()),
  });
  return (
    <Section id="developers" title={t('developers.title')}>
      <Text>{t('developers.intro')}</Text>
      {secret && <Secret secret={secret} title={t('developers.secretOnce')} label={t('developers.newKey')} />}
      <Failure error={keys.error ?? revoke.error ?? roll.error} />
      <Title order={3}>{t('developers.keys')}</Title>
      {keys.data?.length === 0 && <Text c="dimmed">{t('developers.none')}</Text>}
      {(keys.data ?? []).map((k) => {
        const ended = k.revokedAt !== null;
        return (
          <Paper key={k.id} p="xs" withBorder data-testid="api-key">
            <Group justify="space-between" wrap="wrap">
              <Stack gap={2}>
                <Group gap="xs">
                  <Text fw={600}>{k.name}</Text>
                  <Badge color={k.mode === 'live' ? 'green' : 'gray'}>{k.mode}</Badge>
                  {ended && <Badge color="red">{t('developers.revoked')}</Badge>}
                  {!ended && k.suspendedAt !== null && <Badge color="red">{t('developers.suspended')}</Badge>}
                </Group>
                <Code>{k.prefix}…</Code>
                <Text size="xs" c="dimmed">
                  {k.scopes.join(', ')} ·{' '}
                  {k.lastUsedAt ? t('developers.lastUsed', { date: formatDateTime(k.lastUsedAt) }) : t('developers.neverUsed')}
                  {k.expiresAt && !ended ? ` · ${t('developers.expires', { date: formatDateTime(k.expiresAt) })}` : ''}
                  {k.dailyLimit !== null
                    ? ` · ${t('developers.spent', { spent: formatNaira(k.spentToday), limit: formatNaira(k.dailyLimit) })}`
                    : ''}
                </Text>
              </Stack>
              {!ended && (
                <Group gap="xs">
                  <Button size="xs" variant="light" onClick={() => roll.mutate(k.id)} loading={roll.isPending && roll.variables === k.id}>
                    {t('developers.roll')}
                  </Button>
                  <Button size="xs" color="red" variant="light" onClick={() => revoke.mutate(k.id)}>
                    {t('developers.revoke')}
                  </Button>
                </Group>
              )}
            </Group>
          </Paper>
        );
      })}
      <TestWallet />
      <CreateKey onMade={(s) => (setSecret(s), refresh())} />
      <Webhooks />
      <Usage />
      <FirstPurchase prefix={(keys.data ?? []).find((k) => k.revokedAt === null && k.suspendedAt === null)?.prefix ?? null} />
    </Section>
  );
}
