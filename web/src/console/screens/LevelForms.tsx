import { Alert, Button, Card, NumberInput, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm, type FieldHints } from '../../components/form';
import { useCan } from '../roles';
import type { useOperatorStepUp } from '../step-up';
import * as api from '../../api/calls';

type WithGrant = ReturnType<typeof useOperatorStepUp>['withGrant'];
const reason = z.string().trim().min(3).max(500);
// adminRequestLevelGrant: a customer (their id, from the customer page) and a level.
const grantSchema = z.object({
  userId: z.string().trim().uuid(),
  level: z.string().min(1),
  reason,
});
// adminRequestPriceLevel: a level id (new, or one to rename), its name, rank and upgrade fee (empty: granted only), and
// whether its customers may create live API keys (empty: unchanged; a new level: no).
const levelSchema = z.object({
  level: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z][a-z0-9_]{1,30}$/),
  name: z.string().trim().min(2).max(40),
  rank: z.number().int().min(0).max(100),
  upgradeFee: z.union([z.literal(''), z.number().min(1).max(10_000_000)]),
  apiKeys: z.enum(['', 'yes', 'no']),
  reason,
});

// The fields whose rule the generic words cannot say: a customer's ID, a level's ID.
const GRANT_HINTS: FieldHints = { userId: 'console.levelForms.userIdHint' };
const LEVEL_HINTS: FieldHints = { level: 'console.levelForms.levelIdHint' };

/** The levels as the catalogue lists them (every price list carries them). */
const useLevels = () => useQuery(adminQueries.planPrices({ service: 'exam' })).data?.levels ?? [];

/**
 * Issue 45: price levels through four-eyes (approvals' price_setting): grant a customer a level; add a level or rename,
 * reorder or reprice an existing one. Each waits for a second admin in Approvals.
 */
export function LevelForms({ withGrant }: { withGrant: WithGrant }) {
  const { t } = useTranslation();
  const can = useCan();
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Card withBorder component="section" aria-labelledby="price-levels">
      <Stack>
        <Title order={2} size="h4" id="price-levels">
          {t('console.levelForms.title')}
        </Title>
        {notice && (
          <Alert color="green" role="status">
            {notice}
          </Alert>
        )}
        {can('adminRequestLevelGrant') && <GrantForm withGrant={withGrant} onAsked={setNotice} />}
        {can('adminRequestPriceLevel') && <LevelForm withGrant={withGrant} onAsked={setNotice} />}
      </Stack>
    </Card>
  );
}

const asked = (t: TFunction, status: string, what: string) =>
  t(status === 'pending' ? 'console.levelForms.asked' : 'console.levelForms.done', { what });

function GrantForm({ withGrant, onAsked }: { withGrant: WithGrant; onAsked: (s: string) => void }) {
  const { t } = useTranslation();
  const levels = useLevels();
  const form = useSchemaForm(grantSchema, { userId: '', level: '', reason: '' }, GRANT_HINTS);
  const [error, setError] = useState<unknown>(null);
  return (
    <form
      noValidate
      aria-label={t('console.levelForms.grant')}
      onSubmit={form.onSubmit(async (v) => {
        setError(null);
        try {
          const r = await withGrant((grantToken) => api.adminRequestLevelGrant(v, grantToken ? { grantToken } : {}));
          onAsked(asked(t, r.status, t('console.levelForms.grantWhat')));
          form.reset();
        } catch (err) {
          if (!showServerIssues(form, err, GRANT_HINTS)) setError(err);
        }
      })}
    >
      <Stack>
        <Title order={3} size="h5">
          {t('console.levelForms.grant')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} style={{ alignItems: 'end' }}>
          <TextInput label={t('console.levelForms.customerId')} {...form.getInputProps('userId')} />
          <Select
            label={t('console.levelForms.level')}
            data={levels.map((l) => ({ value: l.id, label: l.name }))}
            allowDeselect={false}
            {...form.getInputProps('level')}
          />
          <TextInput label={t('console.levelForms.reason')} {...form.getInputProps('reason')} />
          <Button type="submit">{t('console.levelForms.askGrant')}</Button>
        </SimpleGrid>
        <Failure error={error} />
      </Stack>
    </form>
  );
}

function LevelForm({ withGrant, onAsked }: { withGrant: WithGrant; onAsked: (s: string) => void }) {
  const { t } = useTranslation();
  const levels = useLevels();
  const form = useSchemaForm(
    levelSchema,
    { level: '', name: '', rank: 1 as number | '', upgradeFee: '' as number | '', apiKeys: '' as '' | 'yes' | 'no', reason: '' },
    LEVEL_HINTS,
  );
  const [error, setError] = useState<unknown>(null);
  return (
    <form
      noValidate
      aria-label={t('console.levelForms.add')}
      onSubmit={form.onSubmit(async (v) => {
        setError(null);
        try {
          const r = await withGrant((grantToken) =>
            api.adminRequestPriceLevel(
              {
                level: v.level,
                name: v.name,
                rank: Number(v.rank),
                upgradeFee: v.upgradeFee === '' ? null : Number(v.upgradeFee),
                ...(v.apiKeys ? { apiKeys: v.apiKeys === 'yes' } : {}),
                reason: v.reason,
              },
              grantToken ? { grantToken } : {},
            ),
          );
          onAsked(asked(t, r.status, t('console.levelForms.levelWhat', { name: v.name })));
          form.reset();
        } catch (err) {
          if (!showServerIssues(form, err, LEVEL_HINTS)) setError(err);
        }
      })}
    >
      <Stack>
        <Title order={3} size="h5">
          {t('console.levelForms.add')}
        </Title>
        <Select
          label={t('console.levelForms.startFrom')}
          data={[
            { value: '', label: t('console.levelForms.newLevel') },
            ...levels.map((l) => ({ value: l.id, label: t('console.levelForms.withRank', { name: l.name, rank: l.rank }) })),
          ]}
          value=""
          allowDeselect={false}
          onChange={(id) => {
            const l = levels.find((x) => x.id === id);
            if (l) form.setValues({ level: l.id, name: l.name, rank: l.rank });
          }}
        />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} style={{ alignItems: 'end' }}>
          <TextInput label={t('console.levelForms.levelId')} {...form.getInputProps('level')} />
          <TextInput label={t('console.levelForms.name')} {...form.getInputProps('name')} />
          <NumberInput label={t('console.levelForms.rank')} min={0} max={100} {...form.getInputProps('rank')} />
          <NumberInput label={t('console.levelForms.fee')} min={1} thousandSeparator="," {...form.getInputProps('upgradeFee')} />
          <Select
            label={t('console.levelForms.apiKeys')}
            data={[
              { value: '', label: t('console.levelForms.apiKeysKeep') },
              { value: 'yes', label: t('console.levelForms.apiKeysYes') },
              { value: 'no', label: t('console.levelForms.apiKeysNo') },
            ]}
            allowDeselect={false}
            {...form.getInputProps('apiKeys')}
          />
          <TextInput label={t('console.levelForms.reason')} {...form.getInputProps('reason')} />
        </SimpleGrid>
        <Button type="submit" style={{ alignSelf: 'start' }}>
          {t('console.levelForms.save')}
        </Button>
        <Failure error={error} />
      </Stack>
    </form>
  );
}
