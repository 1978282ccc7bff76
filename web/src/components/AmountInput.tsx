import { NumberInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatNaira } from '../app/format';

/**
 * A naira amount: digits with thousands separators and at most two decimals, never negative. It says, under the
 * field, when the amount is outside [min, max] (the service refuses it anyway; this saves a round trip).
 */
export function AmountInput(p: {
  label: string;
  value: number | '';
  onChange(v: number | ''): void;
  min?: number;
  max?: number;
  description?: string;
  /** A message from the form (a rule it checked, or the service's refusal of this field); shown before the range. */
  error?: string;
  disabled?: boolean;
  /** Leaving the field (a form checks it then). */
  onBlur?: () => void;
}) {
  const { t } = useTranslation();
  const outside = typeof p.value === 'number' && ((p.min !== undefined && p.value < p.min) || (p.max !== undefined && p.value > p.max));
  return (
    <NumberInput
      label={p.label}
      description={p.description}
      prefix="₦"
      decimalScale={2}
      thousandSeparator=","
      allowNegative={false}
      inputMode="decimal"
      value={p.value}
      onChange={(v) => p.onChange(typeof v === 'number' ? v : v === '' ? '' : Number(String(v).replace(/[^\d.]/g, '')) || '')}
      error={
        p.error ??
        (outside ? t('app.amountRange', { min: formatNaira(p.min ?? 0), max: p.max !== undefined ? formatNaira(p.max) : '—' }) : undefined)
      }
      disabled={p.disabled}
      onBlur={p.onBlur}
      required
    />
  );
}
