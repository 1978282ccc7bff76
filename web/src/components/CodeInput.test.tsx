// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../locales/en';
import { setUpComponentTests } from '../testing/jsdom';
import { CodeInput } from './CodeInput';

/** The code boxes take the focus when they appear, or when they become usable (the sign-in's race in CI, en). */
beforeAll(() => setUpComponentTests(en));
afterEach(cleanup);

const boxes = (disabled: boolean) => (
  <MantineProvider>
    <button type="button">elsewhere</button>
    <CodeInput label="Code" value="" onChange={() => undefined} onComplete={() => undefined} disabled={disabled} />
  </MantineProvider>
);
const first = () => screen.getAllByRole('textbox')[0] ?? screen.getAllByRole('spinbutton')[0];

describe('CodeInput focus', () => {
  it('takes the focus in its first box when drawn', () => {
    render(boxes(false));
    expect(document.activeElement).toBe(first());
  });

  it('drawn disabled, takes the focus once enabled', () => {
    const { rerender } = render(boxes(true));
    expect(document.activeElement).not.toBe(first());
    rerender(boxes(false));
    expect(document.activeElement).toBe(first());
  });

  it('once enabled, leaves the focus where the person put it meanwhile', () => {
    const { rerender } = render(boxes(true));
    screen.getByRole('button', { name: 'elsewhere' }).focus();
    rerender(boxes(false));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'elsewhere' }));
  });
});
