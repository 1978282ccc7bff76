import { MantineProvider, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { AuthProvider } from './auth';
import { queryClient } from './query';
import { router } from './router';

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
  dark: {},
});

export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={variables}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
