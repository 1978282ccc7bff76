import { Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm } from '../../components/form';
import type { OperatorStepUp } from '../step-up';
import * as api from '../../api/calls';

// adminCreateProduct: a name of 2-120, a description up to 2000, a price of ₦1-₦10,000,000, a stock of 0-1,000,000.
const productSchema = z.object({
  name: z.string().trim().min(2).max(120),
  description: z.string().trim().max(2000),
  price: z.number().min(1).max(10_000_000),
  stock: z.number().int().min(0).max(1_000_000),
});
// adminCreateSubscriptionPlan: a service id (2-40 of a-z, 0-9, _), a category, a name of 2-120, a price of ₦50-₦1,000,000.
const planSchema = z.object({
  service: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{2,40}$/),
  category: z.enum(['streaming', 'social']),
  name: z.string().trim().min(2).max(120),
  price: z.number().min(50).max(1_000_000),
});

/** A new marketplace product (on sale at once); the products tab renders the step-up dialog. */
export function NewProduct({ stepUp }: { stepUp: OperatorStepUp }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const form = useSchemaForm(productSchema, { name: '', description: '', price: '' as number | '', stock: 0 as number | '' });
  return (
    <Card withBorder component="section" aria-labelledby="new-product">
      <Title order={2} size="h5" id="new-product" mb="xs">
        {t('console.shopCreate.newProduct')}
      </Title>
      <form
        noValidate
        onSubmit={form.onSubmit(async (v) => {
          setError(null);
          try {
            await stepUp.withGrant((grantToken) =>
              api.adminCreateProduct(
                {
                  name: v.name.trim(),
                  price: Number(v.price),
                  stock: Number(v.stock),
                  ...(v.description.trim() ? { description: v.description.trim() } : {}),
                },
                grantToken ? { grantToken } : {},
              ),
            );
            form.reset();
            await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'products'] });
          } catch (err) {
            if (!showServerIssues(form, err)) setError(err);
          }
        })}
      >
        <Stack gap="xs">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput label={t('console.shopCreate.name')} required {...form.getInputProps('name')} />
            <NumberInput
              label={t('console.shopCreate.priceNaira')}
              required
              min={1}
              thousandSeparator=","
              {...form.getInputProps('price')}
            />
            <NumberInput label={t('console.shopCreate.stock')} required min={0} allowDecimal={false} {...form.getInputProps('stock')} />
          </SimpleGrid>
          <Textarea label={t('console.shopCreate.description')} autosize minRows={2} {...form.getInputProps('description')} />
          <Failure error={error} />
          <Group>
            <Button type="submit">{t('console.shopCreate.addProduct')}</Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** A new subscription plan (on sale at once); the plans tab renders the step-up dialog. */
export function NewPlan({ stepUp }: { stepUp: OperatorStepUp }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const form = useSchemaForm(planSchema, { service: '', category: 'streaming', name: '', price: '' as number | '' });
  return (
    <Card withBorder component="section" aria-labelledby="new-plan">
      <Title order={2} size="h5" id="new-plan" mb="xs">
        {t('console.shopCreate.newPlan')}
      </Title>
      <form
        noValidate
        onSubmit={form.onSubmit(async (v) => {
          setError(null);
          try {
            await stepUp.withGrant((grantToken) =>
              api.adminCreateSubscriptionPlan(
                {
                  service: v.service.trim(),
                  category: v.category as 'streaming' | 'social',
                  name: v.name.trim(),
                  price: Number(v.price),
                },
                grantToken ? { grantToken } : {},
              ),
            );
            form.reset();
            await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'plans'] });
          } catch (err) {
            if (!showServerIssues(form, err)) setError(err);
          }
        })}
      >
        <Stack gap="xs">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
            <TextInput
              label={t('console.shopCreate.serviceId')}
              description={t('console.shopCreate.serviceIdHint')}
              required
              {...form.getInputProps('service')}
            />
            <Select
              label={t('console.shopCreate.category')}
              data={[
                { value: 'streaming', label: t('console.shopCreate.streaming') },
                { value: 'social', label: t('console.shopCreate.social') },
              ]}
              allowDeselect={false}
              {...form.getInputProps('category')}
            />
            <TextInput label={t('console.shopCreate.planName')} required {...form.getInputProps('name')} />
            <NumberInput
              label={t('console.shopCreate.priceNaira')}
              required
              min={50}
              thousandSeparator=","
              {...form.getInputProps('price')}
            />
          </SimpleGrid>
          <Failure error={error} />
          <Group>
            <Button type="submit">{t('console.shopCreate.addPlan')}</Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
