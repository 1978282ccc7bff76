import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { settingsQueries } from '../../api/queries/settings';
import { useStepUp } from '../../app/StepUp';
import { Result } from '../../components/Result';
import * as api from '../../api/calls';

/**
 * Issue 43: the two-factor recovery codes. They are shown once, when the authenticator is confirmed (`fresh`) or when
 * the customer makes a new set, with copy and download; afterwards only how many are left. Each one signs in once
 * on a new device in place of the authenticator's code.
 */
export function RecoveryCodes({ fresh, left }: { fresh?: string[]; left?: number }) {
  const { t } = useTranslation();
  const stepUp = useStepUp();
  const qc = useQueryClient();
  const [copied, setCopied] = useState(false);
  const regenerate = useMutation({
    mutationFn: () => stepUp.withGrant((grantToken) => api.regenerateRecoveryCodes({}, { grantToken })),
    onSuccess: () => (setCopied(false), void qc.invalidateQueries({ queryKey: settingsQueries.twoFactor().queryKey })),
  });
  const codes = regenerate.data?.recoveryCodes ?? fresh;
  const text = codes ? `${t('settings.recoveryCodesFileTitle')}\n\n${codes.join('\n')}\n` : '';
  async function copy() {
    await navigator.clipboard.writeText(text);
    setCopied(true);
  }
  function download() {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    a.download = 'recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(a.href);
  }
  return (
    <Stack gap="xs" aria-labelledby="recovery-codes-title">
      <Text fw={600} id="recovery-codes-title">
        {t('settings.recoveryCodes')}
      </Text>
      {codes ? (
        <>
          <Alert color="yellow" role="status">
            {t('settings.recoveryCodesOnce')}
          </Alert>
          <List aria-label={t('settings.recoveryCodes')} listStyleType="none" spacing={2} ff="monospace">
            {codes.map((c) => (
              <List.Item key={c}>{c}</List.Item>
            ))}
          </List>
          <Group>
            <Button variant="light" onClick={() => void copy()}>
              {copied ? t('settings.recoveryCodesCopied') : t('settings.recoveryCodesCopy')}
            </Button>
            <Button variant="light" onClick={download}>
              {t('settings.recoveryCodesDownload')}
            </Button>
          </Group>
        </>
      ) : (
        <Text size="sm">{t('settings.recoveryCodesLeft', { count: left ?? 0 })}</Text>
      )}
      <Result error={regenerate.error} />
      <Button variant="subtle" onClick={() => regenerate.mutate()} loading={regenerate.isPending}>
        {t('settings.recoveryCodesNew')}
      </Button>
      {stepUp.modal}
    </Stack>
  );
}
