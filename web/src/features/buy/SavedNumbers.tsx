import { Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { beneficiaryQueries } from '../../api/queries/beneficiaries';

/** "My number" and the saved numbers, one tap each to fill the phone field (and the network they were saved with). */
export function SavedNumbers({ onPick, disabled }: { onPick(phone: string, network: string | null): void; disabled?: boolean }) {
  const { t } = useTranslation();
  const saved = useQuery(beneficiaryQueries.list('phone'));
  const items = saved.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="saved-numbers">
        {t('buy.savedNumbers')}
      </Text>
      <Group gap="xs" role="group" aria-labelledby="saved-numbers">
        {items.map((b) => (
          <Button
            key={b.id ?? 'mine'}
            size="compact-sm"
            variant="default"
            disabled={disabled}
            onClick={() => onPick(b.recipient, b.provider)}
            aria-label={`${b.ownNumber ? t('buy.myNumber') : b.label}: ${b.recipient}`}
          >
            {b.ownNumber ? t('buy.myNumber') : b.label}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}

/** "Save this number" with the name it is saved under (saved when the purchase is reviewed). */
export function SaveNumber(p: { save: boolean; label: string; onSave(v: boolean): void; onLabel(v: string): void; error?: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Checkbox label={t('buy.saveNumber')} checked={p.save} onChange={(e) => p.onSave(e.currentTarget.checked)} />
      {p.save && (
        <TextInput
          label={t('buy.saveAs')}
          value={p.label}
          maxLength={40}
          onChange={(e) => p.onLabel(e.currentTarget.value)}
          error={p.error}
        />
      )}
    </Stack>
  );
}
