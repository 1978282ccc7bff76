import { RouterProvider } from '@tanstack/react-router';
import { router } from './router';

/** The app's routes (router.tsx) in their own chunk: the sign-in screen at / draws before they load (App.tsx). */
export function Routed() {
  return <RouterProvider router={router} />;
}
