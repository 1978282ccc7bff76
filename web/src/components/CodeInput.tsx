import { PinInput, Text } from '@mantine/core';
// The code boxes' styles (start.tsx has the first screens'; the whole sheet is not loaded on the sign-in screen).
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/PinInput.layer.css';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A 6-digit one-time code: six boxes, each named for screen readers; pasting or the phone's one-time-code
 * suggestion fills them all, and the last digit calls onComplete (the code submits itself).
 */
export function CodeInput(p: {
  label: string;
  value: string;
  onChange(v: string): void;
  onComplete(v: string): void;
  disabled?: boolean;
  /** What is wrong with the code, said under the boxes (each box is described by it). */
  error?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  // The code boxes appear after the person sent their e-mail or asked for a code: focus follows their action, in the
  // first box (a call to focus(): the autofocus attribute is honoured once per page, not for boxes drawn later). Boxes
  // drawn disabled (the screen still finishing the send) cannot take it then: they take it once enabled, when the
  // focus has gone nowhere else meanwhile.
  const root = useRef<HTMLDivElement>(null);
  const focusFirst = () => root.current?.querySelector('input')?.focus();
  useEffect(focusFirst, []);
  useEffect(() => {
    if (!p.disabled && (document.activeElement ?? document.body) === document.body) focusFirst();
  }, [p.disabled]);
  return (
    <div role="group" aria-labelledby={id} ref={root}>
      <Text id={id} fw={500} size="sm" mb={4}>
        {p.label}
      </Text>
      <PinInput
        // A fixed id: without one, the boxes take a new random id (and key) just after they are drawn, and the box
        // that had the focus is replaced by one that has not.
        id={`${id}-box`}
        length={6}
        type="number"
        oneTimeCode
        value={p.value}
        onChange={p.onChange}
        onComplete={p.onComplete}
        disabled={p.disabled}
        error={Boolean(p.error)}
        getInputProps={(index) => ({
          'aria-label': t('app.codeDigit', { n: index + 1 }),
          'aria-invalid': p.error ? true : undefined,
          'aria-describedby': p.error ? errorId : undefined,
        })}
      />
      {p.error && (
        <Text id={errorId} size="xs" c="var(--mantine-color-error)" mt={4}>
          {p.error}
        </Text>
      )}
    </div>
  );
}
