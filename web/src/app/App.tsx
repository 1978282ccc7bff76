import { Center, Loader, MantineProvider, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SignIn } from '../features/auth/SignIn';
import { AuthProvider, useAuth } from './auth';
import { queryClient } from './query';
import { Later, useFirstScreenDrawn } from './later';
import { firstScreenNeedsRouter } from './session-hint';

// The routes (the router and its tree, the shell): main.tsx starts loading them with the app when the first screen
// needs them, and the sign-in screen at / when the person starts typing.
const loadRouted = () => import('./routed');
const Routed = lazy(() => loadRouted().then((m) => ({ default: m.Routed })));

// A brand green whose shades from 6 up keep 4.5:1 contrast with white (buttons) and on white (links): WCAG AA.
const brand = ['#e6f7ee', '#ccebdc', '#99d6b8', '#66c295', '#33ad72', '#1a9a5c', '#0b7a43', '#096b3a', '#075c32', '#054d29'] as const;
const theme = createTheme({
  colors: { brand: [...brand] },
  primaryColor: 'brand',
  primaryShade: 6,
  autoContrast: true,
  luminanceThreshold: 0.2,
  fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif',
});

// Dimmed text darker than Mantine's default (gray 6 is 3.3:1 on white): 4.5:1 or better everywhere.
// Text on the light variants (alerts, light buttons, badges) darkened the same way.
const LIGHT_TEXT = { green: '#1b5e2a', red: '#a61e1e', blue: '#1c4f8a', yellow: '#6b4e00', gray: '#343a40', brand: '#054d29' };
const variables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    ...Object.fromEntries(Object.entries(LIGHT_TEXT).map(([c, v]) => [`--mantine-color-${c}-light-color`, v])),
  },
  // Dark (issue 43): dimmed text and the brand's text colour light enough for 4.5:1 on the dark body.
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-anchor': 'var(--mantine-color-brand-3)',
    '--mantine-color-brand-light-color': 'var(--mantine-color-brand-2)',
  },
});

export function App() {
  const stage = useStages(1);
  // The screen draws in the task after the CSS variables' (`after` 2: Later's first wait ends before this stage's),
  // and as Later's own state: drawing it re-draws neither Mantine's provider nor its CSS variables (computed again on
  // each of the provider's draws).
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" cssVariablesResolver={variables} withCssVariables={stage >= 1}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <Later after={2}>
            <Screens />
          </Later>
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

/**
 * The sign-in screen at / with no session to restore draws without the router: evaluating the router and its route
 * tree was blocking time before the first screen on a slow phone (Lighthouse). Once signed in (and from then on, signed
 * out again included) the routes take over, at the same address.
 */
function Screens() {
  const { status } = useAuth();
  useFirstScreenDrawn();
  const { t } = useTranslation();
  const [routed, setRouted] = useState(firstScreenNeedsRouter);
  if (!routed && status !== 'signedOut') setRouted(true);
  const loading = (
    <Center h="100vh">
      <Loader aria-label={t('app.loading')} />
    </Center>
  );
  if (!routed)
    return (
      <div onFocusCapture={() => void loadRouted()}>
        <SignIn />
      </div>
    );
  return (
    <Suspense fallback={loading}>
      <Routed fallback={loading} />
    </Suspense>
  );
}

/**
 * 0 on the first draw, then one more each task up to `last`. The app draws in three tasks while index.html's splash
 * stays on screen (the app's root is hidden until the first screen has drawn, later.tsx): Mantine's provider (its
 * theme) and the session's start; Mantine's CSS variables (the theme's colours written out); the screen. A phone's
 * main thread answers a tap in between, and no task is long (Lighthouse's total blocking time counts each task's time
 * over 50 ms).
 */
function useStages(last: number) {
  const [stage, setStage] = useState(0);
  useLayoutEffect(() => {
    if (stage >= last) return;
    const id = setTimeout(() => setStage(stage + 1), 0);
    return () => clearTimeout(id);
  }, [stage, last]);
  return stage;
}
