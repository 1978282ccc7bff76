import { Button, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The transaction PIN pad: four digits, shown as dots, typed with the buttons or the keyboard. The fourth digit
 * submits (no Confirm tap, issue 43); a refused PIN is cleared by the caller, which says why. It never stores the PIN
 * anywhere but the caller's state.
 *
 * `focus` (the last step of a review): the pad scrolls into view, clear of the fixed header and tab bar, and takes the
 * focus when it appears and again whenever the value changes (a refusal, the pad cleared for another try), so the
 * next tap or key is a digit.
 */
export function PinPad({
  value,
  onChange,
  onConfirm,
  busy,
  focus,
}: {
  value: string;
  onChange(v: string): void;
  onConfirm(pin: string): void;
  busy?: boolean;
  focus?: boolean | number;
}) {
  const { t } = useTranslation();
  const pad = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focus === undefined || focus === false) return;
    pad.current?.scrollIntoView({ block: 'nearest' });
    pad.current?.focus({ preventScroll: true });
  }, [focus]);
  const press = (d: string) => {
    if (busy || value.length >= 4) return;
    onChange(value + d);
    if (value.length === 3) onConfirm(value + d);
  };
  return (
    <Stack
      ref={pad}
      tabIndex={-1}
      gap="xs"
      role="group"
      aria-label={t('pin.label')}
      aria-busy={busy || undefined}
      style={{ scrollMarginTop: 72, scrollMarginBottom: 'calc(80px + env(safe-area-inset-bottom))' }}
      onKeyDown={(e) => {
        if (/^\d$/.test(e.key)) press(e.key);
        else if (e.key === 'Backspace' && !busy) onChange(value.slice(0, -1));
        // The same PIN again (the answer to the first one was lost before it came).
        else if (e.key === 'Enter' && value.length === 4 && !busy) onConfirm(value);
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
        <Button variant="default" size="lg" onClick={() => onChange(value.slice(0, -1))} aria-label={t('pin.delete')} disabled={busy}>
          ⌫
        </Button>
        <Button variant="default" size="lg" onClick={() => press('0')} aria-label={t('pin.digit', { digit: '0' })}>
          0
        </Button>
        {busy ? <Loader size="sm" m="auto" role="status" aria-label={t('app.loading')} /> : <span />}
      </SimpleGrid>
    </Stack>
  );
}
