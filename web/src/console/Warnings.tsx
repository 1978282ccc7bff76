import { Alert, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { adminQueries } from '../api/queries/admin';

const TITLES = { OPERATOR_2FA_OPTIONAL: 'Operators can act without a second factor' } as const;

/**
 * The settings that weaken this deployment (issue 41: OPERATOR_2FA=optional in production), one banner each on every
 * screen, from the profile the console loads at start (getProfile's consoleWarnings, operators only).
 */
export function ConsoleWarnings() {
  const warnings = useQuery(adminQueries.me()).data?.consoleWarnings ?? [];
  if (!warnings.length) return null;
  return (
    <Stack gap="xs" mb="md">
      {warnings.map((w) => (
        <Alert key={w.code} color="red" variant="light" role="alert" title={TITLES[w.code]}>
          {w.message}
        </Alert>
      ))}
    </Stack>
  );
}
