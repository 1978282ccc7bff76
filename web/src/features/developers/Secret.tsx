import { Alert, Button, CopyButton, Group, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A secret shown once (an API key, a webhook endpoint's signing secret): read-only, labelled, with a Copy button. */
export function Secret({ secret, title, label }: { secret: string; title: string; label: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" title={title}>
      <Group gap="xs" align="end" wrap="nowrap">
        <TextInput label={label} value={secret} readOnly style={{ flex: 1 }} styles={{ input: { fontFamily: 'monospace' } }} />
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy}>
              {copied ? t('developers.copied') : t('developers.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Alert>
  );
}
