// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AmountInput } from '../../components/AmountInput';
import { formatNaira } from '../../app/format';
import { en } from '../../locales/en';
import { detectNetwork, parseNumbers } from '../../app/network';
import { PinPad } from '../../components/PinPad';
import { purchaseReducer, type PurchaseState } from './purchase-state';
import { setUpComponentTests } from '../../testing/jsdom';

/** Component tests: the PIN pad, the amount input, network detection and the purchase state machine. */
beforeAll(() => setUpComponentTests(en));
afterEach(cleanup);

const wrap = (ui: React.ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);

describe('PinPad', () => {
  function Harness({ onConfirm }: { onConfirm(pin: string): void }) {
    const [v, setV] = useState('');
    return <PinPad value={v} onChange={setV} onConfirm={onConfirm} />;
  }

  it('takes digits from the buttons, deletes the last, and submits on the fourth digit (no Confirm tap)', () => {
    const onConfirm = vi.fn();
    wrap(<Harness onConfirm={onConfirm} />);
    expect(screen.queryByRole('button', { name: /confirm/i })).toBeNull();
    for (const d of ['1', '2', '9']) fireEvent.click(screen.getByRole('button', { name: `Digit ${d}` }));
    expect(screen.getByTestId('pin-dots').getAttribute('aria-label')).toBe('3 of 4 digits entered');
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Delete last digit' }));
    fireEvent.click(screen.getByRole('button', { name: 'Digit 0' }));
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Digit 7' }));
    expect(onConfirm).toHaveBeenCalledExactlyOnceWith('1207');
    fireEvent.click(screen.getByRole('button', { name: 'Digit 5' })); // a fifth digit is ignored
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('pin-dots').textContent).toBe('●●●●');
  });

  it('works from the keyboard: the fourth digit typed submits, Backspace deletes', () => {
    const onConfirm = vi.fn();
    wrap(<Harness onConfirm={onConfirm} />);
    const pad = screen.getByRole('group', { name: 'Transaction PIN' });
    for (const key of ['4', '4', 'x', 'Backspace', '3', '2']) fireEvent.keyDown(pad, { key });
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.keyDown(pad, { key: '1' });
    expect(onConfirm).toHaveBeenCalledExactlyOnceWith('4321');
  });

  it('a refused PIN, cleared by its caller, leaves the pad empty and in focus for another try', () => {
    function Refusing() {
      const [v, setV] = useState('');
      const [tries, setTries] = useState(1);
      return <PinPad value={v} onChange={setV} onConfirm={() => (setV(''), setTries((n) => n + 1))} focus={tries} />;
    }
    wrap(<Refusing />);
    const pad = screen.getByRole('group', { name: 'Transaction PIN' });
    expect(document.activeElement).toBe(pad);
    for (const d of '1111') fireEvent.click(screen.getByRole('button', { name: `Digit ${d}` }));
    expect(screen.getByTestId('pin-dots').getAttribute('aria-label')).toBe('0 of 4 digits entered');
    expect(document.activeElement).toBe(pad);
  });

  it('takes no digit while the PIN is being checked', () => {
    const onConfirm = vi.fn();
    wrap(<PinPad value="" onChange={vi.fn()} onConfirm={onConfirm} busy />);
    fireEvent.click(screen.getByRole('button', { name: 'Digit 1' }));
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.getByRole('group', { name: 'Transaction PIN' }).getAttribute('aria-busy')).toBe('true');
  });
});

describe('AmountInput', () => {
  function Harness() {
    const [v, setV] = useState<number | ''>('');
    return (
      <>
        <AmountInput label="Amount (₦)" min={100} max={1_000_000} value={v} onChange={setV} />
        <output data-testid="value">{String(v)}</output>
      </>
    );
  }
  it('reads typed naira with separators as a number, and says when it is out of range', () => {
    wrap(<Harness />);
    const input = screen.getByLabelText(/Amount/);
    fireEvent.change(input, { target: { value: '2500.5' } });
    expect(screen.getByTestId('value').textContent).toBe('2500.5');
    expect((input as HTMLInputElement).value).toBe('₦2,500.5');
    fireEvent.change(input, { target: { value: '50' } });
    expect(screen.getByText('Enter an amount from ₦100.00 to ₦1,000,000.00.')).toBeTruthy();
  });
});

describe('network detection', () => {
  it('knows the networks by prefix, in every number form, with 5-digit prefixes first', () => {
    expect(detectNetwork('08031234567')).toBe('mtn');
    expect(detectNetwork('+2348021234567')).toBe('airtel');
    expect(detectNetwork('234 805 123 4567')).toBe('glo');
    expect(detectNetwork('0809-123-4567')).toBe('9mobile');
    expect(detectNetwork('07025123456')).toBe('mtn');
    expect(detectNetwork('0800000000')).toBeNull();
    expect(detectNetwork('hello')).toBeNull();
  });
  it('reads a pasted column: normalised, de-duplicated, bad entries apart', () => {
    expect(parseNumbers('08031234567\n+2348031234567, 0802 123 4567\n12345')).toEqual({
      valid: ['08031234567', '08021234567'],
      invalid: ['12345'],
    });
  });
});

describe('purchase state machine', () => {
  const tx = (status: 'processing' | 'success' | 'failed') => ({ id: '1', reference: 'r', status, amount: 100 });
  const run = (events: Parameters<typeof purchaseReducer>[1][]) => events.reduce<PurchaseState>(purchaseReducer, { phase: 'edit' });

  it('a lost answer is checking, never failed, until the service answers', () => {
    const s = run([{ type: 'review', price: 102 }, { type: 'submit' }, { type: 'connectionLost' }, { type: 'connectionLost' }]);
    expect(s).toEqual({ phase: 'checking', price: 102, attempts: 2 });
    expect(purchaseReducer(s, { type: 'answered', tx: tx('processing') })).toEqual({ phase: 'done', tx: tx('processing') });
  });
  it('PRICE_CHANGED asks again with the new price; any other refusal is shown and can be retried', () => {
    const changed = run([
      { type: 'review', price: 500 },
      { type: 'submit' },
      { type: 'refused', code: 'PRICE_CHANGED', message: 'm', newPrice: 520 },
    ]);
    expect(changed).toEqual({ phase: 'priceChanged', price: 520 });
    expect(purchaseReducer(changed, { type: 'submit' })).toEqual({ phase: 'submitting', price: 520 });
    const refused = run([
      { type: 'review', price: 500 },
      { type: 'submit' },
      { type: 'refused', code: 'INVALID_PIN', message: 'That PIN is not right.' },
    ]);
    expect(refused).toMatchObject({ phase: 'refused', code: 'INVALID_PIN' });
    expect(purchaseReducer(refused, { type: 'submit' })).toEqual({ phase: 'submitting', price: 500 });
  });
  it('ignores a submit before review and a refusal that arrives outside a request', () => {
    expect(run([{ type: 'submit' }])).toEqual({ phase: 'edit' });
    expect(
      run([
        { type: 'review', price: 1 },
        { type: 'refused', code: 'X', message: '' },
      ]),
    ).toEqual({ phase: 'confirm', price: 1 });
  });
});

describe('money format', () => {
  it('is en-NG naira with two decimals', () => {
    expect(formatNaira(1234.5)).toBe('₦1,234.50');
    expect(formatNaira(0)).toBe('₦0.00');
  });
});
