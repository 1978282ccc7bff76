import { useLayoutEffect, useState, type ReactNode } from 'react';

/**
 * Drawing a screen in parts, one task each (issue 29: Lighthouse's total blocking time counts every task's time over
 * 50 ms, and it multiplies the time a task took here by 4 for a slow phone). A part wrapped in `Later` draws one task
 * after the rest of its screen; several `Later`s draw one task each, in the order they were first drawn. Wrap only
 * what comes after everything drawn at once (the end of a screen, a fixed panel): a part that appears above content
 * already on screen would move it.
 *
 * The first screen appears whole: index.html's splash stays and the app's root stays hidden (start.tsx) until the
 * first screen has drawn (`useFirstScreenDrawn`) and every part pending then has drawn too, so nothing on it moves
 * while it is being drawn.
 */
let pending = 0;
let firstScreenDrawn = false;
let revealQueued = false;

function reveal() {
  if (revealQueued) return;
  revealQueued = true;
  // After every layout effect of the task's draw (a part's own parts register in the same draw), before the paint.
  queueMicrotask(() => {
    revealQueued = false;
    if (!firstScreenDrawn || pending > 0) return;
    document.getElementById('splash')?.remove();
    document.getElementById('root')?.removeAttribute('hidden');
  });
}

/** Called by the first screen's outermost component: the splash gives way once its parts have drawn. */
export function useFirstScreenDrawn() {
  useLayoutEffect(() => {
    firstScreenDrawn = true;
    reveal();
  }, []);
}

/**
 * Draws its children one task after the draw that first shows it (nothing until then), or `after` tasks later (a part
 * that should come after the ones drawn before it on the screen although it is earlier in the page). `fallback` shows
 * meanwhile (a loading state the part replaces whole).
 */
export function Later({ children, after = 1, fallback = null }: { children: ReactNode; after?: number; fallback?: ReactNode }) {
  const [left, setLeft] = useState(after);
  const drawn = left <= 0;
  useLayoutEffect(() => {
    if (drawn) return;
    pending++;
    const id = setTimeout(() => setLeft((n) => n - 1), 0);
    // Runs once the children have drawn (or for the next task's wait, or when the part goes before it drew).
    return () => {
      clearTimeout(id);
      pending--;
      reveal();
    };
  }, [left, drawn]);
  return drawn ? children : fallback;
}
