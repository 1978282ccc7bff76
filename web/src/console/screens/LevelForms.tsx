import { Alert, Button, Card, NumberInput, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { post } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { useCan } from '../roles';
import type { useOperatorStepUp } from '../step-up';
import * as ops from '../../api/operations';

type WithGrant = ReturnType<typeof useOperatorStepUp>['withGrant'];
const reason = z.string().trim().min(3, 'Say why (at least 3 characters)').max(500);
// adminRequestLevelGrant: a customer (their id, from the customer page) and a level.
const grantSchema = z.object({
  userId: z.string().trim().uuid('Paste the customer ID from their page'),
  level: z.string().min(1, 'Choose a level'),
  reason,
});
// adminRequestPriceLevel: a level id (new, or one to rename), its name, rank and upgrade fee (empty: granted only).
const levelSchema = z.object({
  level: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z][a-z0-9_]{1,30}$/, '2-31 lowercase letters, digits or _, starting with a letter'),
  name: z.string().trim().min(2, 'At least 2 characters').max(40),
  rank: z.number().int().min(0).max(100),
  upgradeFee: z.union([z.literal(''), z.number().min(1).max(10_000_000)]),
  reason,
});

/** The levels as the catalogue lists them (every price list carries them). */
const useLevels = () => useQuery(adminQueries.planPrices({ service: 'exam' })).data?.levels ?? [];

/**
 * Issue 45: price levels through four-eyes (approvals' price_setting): grant a customer a level; add a level or rename,
 * reorder or reprice an existing one. Each waits for a second admin in Approvals.
 */
export function LevelForms({ withGrant }: { withGrant: WithGrant }) {
  const can = useCan();
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Card withBorder component="section" aria-labelledby="price-levels">
      <Stack>
        <Title order={2} size="h4" id="price-levels">
          Price levels
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

const asked = (status: string, what: string) =>
  status === 'pending' ? `${what} asked for: it waits for a second admin in Approvals.` : `${what} done.`;

function GrantForm({ withGrant, onAsked }: { withGrant: WithGrant; onAsked: (s: string) => void }) {
  const levels = useLevels();
  const form = useSchemaForm(grantSchema, { userId: '', level: '', reason: '' });
  const [error, setError] = useState<unknown>(null);
  return (
    <form
      aria-label="Grant a customer a level"
      onSubmit={form.onSubmit(async (v) => {
        setError(null);
        try {
          const r = await withGrant((grantToken) => post(ops.adminRequestLevelGrant, v, grantToken ? { grantToken } : {}));
          onAsked(asked(r.status, 'The level grant'));
          form.reset();
        } catch (err) {
          if (!showServerIssues(form, err)) setError(err);
        }
      })}
    >
      <Stack>
        <Title order={3} size="h5">
          Grant a customer a level
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} style={{ alignItems: 'end' }}>
          <TextInput label="Customer ID" {...form.getInputProps('userId')} />
          <Select
            label="Level"
            data={levels.map((l) => ({ value: l.id, label: l.name }))}
            allowDeselect={false}
            {...form.getInputProps('level')}
          />
          <TextInput label="Reason" {...form.getInputProps('reason')} />
          <Button type="submit">Ask to grant</Button>
        </SimpleGrid>
        <Failure error={error} />
      </Stack>
    </form>
  );
}

function LevelForm({ withGrant, onAsked }: { withGrant: WithGrant; onAsked: (s: string) => void }) {
  const levels = useLevels();
  const form = useSchemaForm(levelSchema, { level: '', name: '', rank: 1 as number | '', upgradeFee: '' as number | '', reason: '' });
  const [error, setError] = useState<unknown>(null);
  return (
    <form
      aria-label="Add or rename a level"
      onSubmit={form.onSubmit(async (v) => {
        setError(null);
        try {
          const r = await withGrant((grantToken) =>
            post(
              ops.adminRequestPriceLevel,
              {
                level: v.level,
                name: v.name,
                rank: Number(v.rank),
                upgradeFee: v.upgradeFee === '' ? null : Number(v.upgradeFee),
                reason: v.reason,
              },
              grantToken ? { grantToken } : {},
            ),
          );
          onAsked(asked(r.status, `The level ${v.name}`));
          form.reset();
        } catch (err) {
          if (!showServerIssues(form, err)) setError(err);
        }
      })}
    >
      <Stack>
        <Title order={3} size="h5">
          Add or rename a level
        </Title>
        <Select
          label="Start from a level (to rename it)"
          data={[{ value: '', label: 'A new level' }, ...levels.map((l) => ({ value: l.id, label: `${l.name} (rank ${l.rank})` }))]}
          value=""
          allowDeselect={false}
          onChange={(id) => {
            const l = levels.find((x) => x.id === id);
            if (l) form.setValues({ level: l.id, name: l.name, rank: l.rank });
          }}
        />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} style={{ alignItems: 'end' }}>
          <TextInput label="Level ID" {...form.getInputProps('level')} />
          <TextInput label="Name" {...form.getInputProps('name')} />
          <NumberInput label="Rank" min={0} max={100} {...form.getInputProps('rank')} />
          <NumberInput
            label="Upgrade fee (naira, empty: granted only)"
            min={1}
            thousandSeparator=","
            {...form.getInputProps('upgradeFee')}
          />
          <TextInput label="Reason" {...form.getInputProps('reason')} />
        </SimpleGrid>
        <Button type="submit" style={{ alignSelf: 'start' }}>
          Ask to save the level
        </Button>
        <Failure error={error} />
      </Stack>
    </form>
  );
}
