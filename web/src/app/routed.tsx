import { RouterProvider } from '@tanstack/react-router';
import { useLayoutEffect, useState, type ReactNode } from 'react';
import { createAppRouter, type AppRouter } from './router';

let router: AppRouter | undefined;

/**
 * The app's routes (router.tsx) in their own chunk: the sign-in screen at / draws before they load (App.tsx). The
 * router is made in the task after the chunk's evaluation and draws in the one after that (`fallback` meanwhile), so
 * none of the three is a long task on a slow phone.
 */
export function Routed({ fallback }: { fallback: ReactNode }) {
  const [made, setMade] = useState(router !== undefined);
  useLayoutEffect(() => {
    if (made) return;
    let id = setTimeout(() => {
      router ??= createAppRouter();
      id = setTimeout(() => setMade(true), 0);
    }, 0);
    return () => clearTimeout(id);
  }, [made]);
  return made && router ? <RouterProvider router={router} /> : fallback;
}
