// @vitest-environment jsdom
import { MantineProvider, TextInput } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { en } from '../locales/en';
import { setUpComponentTests } from '../testing/jsdom';
import { useSchemaForm } from './form';

/** A field is checked when it is left holding something, and a press that made it leave ends first. */
beforeAll(() => setUpComponentTests(en));
afterEach(cleanup);

function Form() {
  const form = useSchemaForm(z.object({ code: z.string().length(6) }), { code: '' });
  return (
    <MantineProvider>
      <TextInput label="Code" {...form.getInputProps('code')} />
      <button type="button">Use a recovery code</button>
    </MantineProvider>
  );
}
const field = () => screen.getByRole('textbox', { name: 'Code' });
const invalid = () => field().getAttribute('aria-invalid') === 'true';
const tick = () => act(() => new Promise((r) => setTimeout(r, 0)));

describe('useSchemaForm on leaving a field', () => {
  it('names what is wrong with a value', async () => {
    render(<Form />);
    fireEvent.change(field(), { target: { value: '12' } });
    fireEvent.blur(field());
    await tick();
    expect(invalid()).toBe(true);
  });

  it('says nothing about an empty field (a submit does)', async () => {
    render(<Form />);
    fireEvent.focus(field());
    fireEvent.blur(field());
    await tick();
    expect(invalid()).toBe(false);
  });

  it('left by a press, waits for the press to end before the sentence moves what is below', async () => {
    render(<Form />);
    fireEvent.change(field(), { target: { value: '12' } });
    const link = screen.getByRole('button', { name: 'Use a recovery code' });
    fireEvent.pointerDown(link);
    fireEvent.blur(field());
    await tick();
    expect(invalid()).toBe(false);
    fireEvent.pointerUp(link);
    fireEvent.click(link);
    expect(invalid()).toBe(false);
    await tick();
    expect(invalid()).toBe(true);
  });
});
