import { Alert, Button, Card, Group, NumberInput, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { type GetOutput } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { useOperatorStepUp, type OperatorStepUp } from '../step-up';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money } from '../../app/format';
import { ScreenTitle } from '../../components/ScreenTitle';
import * as ops from '../../api/operations';
import * as api from '../../api/calls';

type Settings = GetOutput<typeof ops.adminGetGrowthSettings>['settings'];
type Editable = Omit<Settings, 'milestones'>;

/** The rules' groups, by the setting's name's start: how the screen arranges them. */
const GROUPS = ['referral', 'checkin', 'savings', 'loan'] as const;

/** Growth rules as operator settings (referrals, check-in, savings, loans): change any, only changed ones are sent. */
export function Growth() {
  const { t } = useTranslation();
  const q = useQuery(adminQueries.growth());
  const stepUp = useOperatorStepUp();
  return (
    <Stack>
      <ScreenTitle title={t('console.growth.title')} />
      <Loaded query={q}>{(data) => <GrowthForm settings={data.settings} stepUp={stepUp} />}</Loaded>
      {stepUp.modal}
    </Stack>
  );
}

function GrowthForm({ settings, stepUp }: { settings: Settings; stepUp: OperatorStepUp }) {
  const { t } = useTranslation();
  const { milestones, ...initial } = settings;
  const schema = z.object(
    Object.fromEntries(Object.entries(initial).map(([k, v]) => [k, typeof v === 'boolean' ? z.boolean() : z.number().min(0)])),
  );
  const form = useSchemaForm<Editable>(schema, initial);
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const keys = Object.keys(initial) as (keyof Editable)[];
  return (
    <form
      noValidate
      aria-label={t('console.growth.title')}
      onSubmit={form.onSubmit(async (values) => {
        setError(null);
        setSaved(null);
        const changed = Object.fromEntries(keys.filter((k) => values[k] !== initial[k]).map((k) => [k, values[k]]));
        if (Object.keys(changed).length === 0) return setSaved(t('console.growth.nothing'));
        try {
          const r = await stepUp.withGrant((grantToken) => api.adminUpdateGrowthSettings(changed, grantToken ? { grantToken } : {}));
          qc.setQueryData(adminQueries.growth().queryKey, (old) => (old ? { ...old, settings: r.settings } : old));
          form.resetDirty(r.settings);
          setSaved(t('console.growth.saved', { count: Object.keys(changed).length }));
        } catch (err) {
          if (!showServerIssues(form, err)) setError(err);
        }
      })}
    >
      <Stack>
        {GROUPS.map((prefix) => (
          <Card withBorder component="section" aria-labelledby={`growth-${prefix}`} key={prefix}>
            <Title order={2} size="h4" id={`growth-${prefix}`} mb="sm">
              {t(`console.growth.groups.${prefix}`)}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              {keys
                .filter((k) => k.startsWith(prefix))
                .map((k) =>
                  typeof initial[k] === 'boolean' ? (
                    <Switch key={k} label={t(`console.growth.settings.${k}`)} {...form.getInputProps(k, { type: 'checkbox' })} />
                  ) : (
                    <NumberInput key={k} label={t(`console.growth.settings.${k}`)} min={0} decimalScale={2} {...form.getInputProps(k)} />
                  ),
                )}
            </SimpleGrid>
          </Card>
        ))}
        <Card withBorder component="section" aria-labelledby="growth-milestones">
          <Title order={2} size="h4" id="growth-milestones" mb="sm">
            {t('console.growth.milestones')}
          </Title>
          <DataTable
            caption={t('console.growth.milestonesCaption')}
            rows={milestones}
            rowKey={(m) => String(m.threshold)}
            empty={t('console.growth.noMilestones')}
            columns={[
              { header: t('console.growth.referrals'), cell: (m) => m.threshold },
              { header: t('console.growth.bonus'), cell: (m) => money(m.bonus) },
            ]}
          />
          <Text size="xs" c="dimmed" mt="xs">
            {t('console.growth.milestonesApi')}
          </Text>
        </Card>
        <Failure error={error} />
        {saved && (
          <Alert color="green" role="status">
            {saved}
          </Alert>
        )}
        <Group>
          <Button type="submit">{t('console.growth.save')}</Button>
        </Group>
      </Stack>
    </form>
  );
}
