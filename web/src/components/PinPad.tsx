import { Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The transaction PIN pad: four digits, shown as dots, typed with the buttons or the keyboard. It never stores the
 * PIN anywhere but the caller's state, and confirms only when four digits are in.
 */
export function PinPad({
  value,
  onChange,
  onConfirm,
  busy,
}: {
  value: string;
  onChange(v: string): void;
  onConfirm(pin: string): void;
  busy?: boolean;
}) {
  const { t } = useTranslation();
  const press = (d: string) => value.length < 4 && onChange(value + d);
  return (
    <Stack
      gap="xs"
      role="group"
      aria-label={t('pin.label')}
      onKeyDown={(e) => {
        if (/^\d$/.test(e.key)) press(e.key);
        else if (e.key === 'Backspace') onChange(value.slice(0, -1));
        else if (e.key === 'Enter' && value.length === 4) onConfirm(value);
      }}
    >
      <Text ta="center" fz={28} aria-live="polite" aria-label={t('pin.entered', { count: value.length })} data-testid="pin-dots">
        {'●'.repeat(value.length) + '○'.repeat(4 - value.length)}
      </Text>
      <SimpleGrid cols={3} spacing="xs">
        {['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((d) => (
          <Button key={d} variant="default" size="lg" onClick={() => press(d)} aria-label={t('pin.digit', { digit: d })}>
            {d}
          </Button>
        ))}
        <Button variant="default" size="lg" onClick={() => onChange(value.slice(0, -1))} aria-label={t('pin.delete')}>
          ⌫
        </Button>
        <Button variant="default" size="lg" onClick={() => press('0')} aria-label={t('pin.digit', { digit: '0' })}>
          0
        </Button>
        <span />
      </SimpleGrid>
      <Group grow>
        <Button size="md" disabled={value.length !== 4} loading={busy} onClick={() => onConfirm(value)}>
          {t('pin.confirm')}
        </Button>
      </Group>
    </Stack>
  );
}
