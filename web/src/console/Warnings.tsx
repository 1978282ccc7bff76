import { Alert, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminQueries } from '../api/queries/admin';

/**
 * The settings that weaken this deployment (issue 41: OPERATOR_2FA=optional in production), one banner each on every
 * screen, from the profile the console loads at start (getProfile's consoleWarnings, operators only).
 */
export function ConsoleWarnings() {
  const { t } = useTranslation();
  const warnings = useQuery(adminQueries.me()).data?.consoleWarnings ?? [];
  if (!warnings.length) return null;
  return (
    <Stack gap="xs" mb="md">
      {warnings.map((w) => (
        <Alert key={w.code} color="red" variant="light" role="alert" title={t(`console.warnings.${w.code}`)}>
          {w.message}
        </Alert>
      ))}
    </Stack>
  );
}
