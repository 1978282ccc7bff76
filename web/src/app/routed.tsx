import { RouterProvider } from '@tanstack/react-router';
import { useLayoutEffect, useState, type ReactNode } from 'react';
import { createAppRouter, type AppRouter } from './router';

let router: AppRouter | undefined;

/**
 * The app's routes (router.tsx) in their own chunk: the sign-in screen at / draws before they load (App.tsx). The
 * router is made in the task after the chunk's evaluation, makes its first load (matching the address, loading the
 * screen's chunk) in the next and draws once that has finished (`fallback` meanwhile; the first draw then skips its
 * load), so none of them is a long task on a slow phone.
 */
export function Routed({ fallback }: { fallback: ReactNode }) {
  const [made, setMade] = useState(router !== undefined);
  useLayoutEffect(() => {
    if (made) return;
    let gone = false;
    let id = setTimeout(() => {
      const r = (router ??= createAppRouter());
      id = setTimeout(() => {
        void r
          .load()
          .catch(() => undefined)
          .then(() => {
            if (!gone) id = setTimeout(() => setMade(true), 0);
          });
      }, 0);
    }, 0);
    return () => {
      gone = true;
      clearTimeout(id);
    };
  }, [made]);
  return made && router ? <RouterProvider router={router} /> : fallback;
}
