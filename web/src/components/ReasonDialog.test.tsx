// @vitest-environment jsdom
import { MantineProvider, NumberInput } from '@mantine/core';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { en } from '../locales/en';
import { setUpComponentTests } from '../testing/jsdom';
import { ReasonDialog } from './ReasonDialog';

/** The kit's reason dialog (issue 44): the reason and any fields the action takes, checked on one form before the action runs. */
beforeAll(async () => {
  await setUpComponentTests(en);
  // The reason's autosized Textarea listens for web fonts loading, which jsdom has no document.fonts for.
  (document as { fonts?: unknown }).fonts ??= { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() };
});
afterEach(cleanup);
const slow = { timeout: 15_000 };

function Dialog({ onConfirm }: { onConfirm: (reason: string | undefined, values: { amount: number | '' }) => Promise<unknown> }) {
  return (
    <MantineProvider>
      <ReasonDialog
        opened
        title="Correct the settlement"
        confirm="Request correction"
        onClose={() => undefined}
        onConfirm={onConfirm}
        fields={{
          schema: z.object({ amount: z.number().refine((n) => n !== 0) }),
          initial: { amount: '' as number | '' },
          hints: { amount: () => 'Enter an amount other than 0' },
          render: (input) => <NumberInput label="Amount" {...input('amount')} />,
        }}
      />
    </MantineProvider>
  );
}

describe('ReasonDialog', () => {
  it('says under each field what is wrong and runs nothing; with both right, runs the action with the reason and the values', async () => {
    const onConfirm = vi.fn(() => Promise.resolve());
    render(<Dialog onConfirm={onConfirm} />);
    fireEvent.submit((await screen.findByRole('button', { name: 'Request correction' }, slow)).closest('form')!);
    expect(await screen.findByText('Enter an amount other than 0', undefined, slow)).toBeTruthy();
    expect(screen.getByText('Fill this in.')).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();

    fireEvent.change(screen.getByRole('textbox', { name: 'Amount' }), { target: { value: '-250.5' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Reason' }), { target: { value: 'Processor paid less' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Request correction' }).closest('form')!);
    await waitFor(() => expect(onConfirm).toHaveBeenCalledWith('Processor paid less', { amount: -250.5 }), slow);
  });
});
