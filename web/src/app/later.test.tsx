// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Later, useFirstScreenDrawn } from './later';

/** Issue 29: the first screens draw in parts, one task each, and appear whole (later.tsx). */
function Screen() {
  useFirstScreenDrawn();
  return (
    <div>
      <p>title</p>
      <Later>
        <p>first part</p>
      </Later>
      <Later after={2}>
        <p>second part</p>
      </Later>
    </div>
  );
}

/** One timer task: the timers due now run, then their draws and the microtasks after them. */
const nextTask = () =>
  act(async () => {
    vi.advanceTimersByTime(0);
  });

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('Later', () => {
  it('draws each part a task later and shows the first screen only once every part has drawn', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    document.body.innerHTML = '<div class="splash" id="splash">VTU Wallet</div><div id="root" hidden></div>';
    const root = document.getElementById('root')!;
    render(<Screen />, { container: root });
    await act(async () => undefined);
    expect(screen.getByText('title', { selector: 'p' })).toBeTruthy();
    expect(document.body.textContent).not.toContain('first part');
    expect(document.getElementById('splash')).not.toBeNull();
    expect(root.hidden).toBe(true);

    await nextTask();
    expect(document.body.textContent).toContain('first part');
    expect(document.body.textContent).not.toContain('second part');
    expect(document.getElementById('splash')).not.toBeNull();
    expect(root.hidden).toBe(true);

    await nextTask();
    expect(document.body.textContent).toContain('second part');
    expect(document.getElementById('splash')).toBeNull();
    expect(root.hidden).toBe(false);
  });

  it('draws a part shown after the first screen a task later, the page staying as it is', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    document.body.innerHTML = '<div id="root"></div>';
    const root = document.getElementById('root')!;
    render(
      <Later>
        <p>menu</p>
      </Later>,
      { container: root },
    );
    await act(async () => undefined);
    expect(root.textContent).toBe('');
    await nextTask();
    expect(root.textContent).toBe('menu');
    expect(root.hidden).toBe(false);
  });

  it('shows its fallback until the part draws, then the part in its place', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    document.body.innerHTML = '<div id="root"></div>';
    const root = document.getElementById('root')!;
    render(
      <Later fallback={<p>loading</p>}>
        <p>shell</p>
      </Later>,
      { container: root },
    );
    await act(async () => undefined);
    expect(root.textContent).toBe('loading');
    await nextTask();
    expect(root.textContent).toBe('shell');
  });
});
