import { Alert, Button, Card, Group, Stack, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { consoleQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { useOperatorStepUp } from '../step-up';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { when } from '../../app/format';
import * as api from '../../api/calls';

/** This operator's passkeys (WebAuthn): a second factor and a step-up method. */
export function Passkeys() {
  const { t } = useTranslation();
  const q = useQuery(consoleQueries.passkeys());
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => qc.invalidateQueries({ queryKey: consoleQueries.passkeys().queryKey });
  async function add() {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const { startRegistration } = await import('@simplewebauthn/browser');
      // Adding a second factor asks for a step-up first (a code, or a passkey the operator already has).
      const r = await stepUp.withGrant(async (grantToken) => {
        const opts = grantToken ? { grantToken } : {};
        const { options } = await api.adminPasskeyRegisterOptions({}, opts);
        const response = await startRegistration({ optionsJSON: options as never });
        return api.adminPasskeyRegister({ response: response as never, ...(name.trim() ? { name: name.trim() } : {}) }, opts);
      });
      setNotice(t('console.operators.passkeyAdded', { name: r.name }));
      setName('');
      await refresh();
    } catch (err) {
      // The browser's own refusal (no authenticator, cancelled) is not the service's: say what it said.
      if (err instanceof Error && !(err instanceof ApiError)) setNotice(t('console.operators.browserRefused', { message: err.message }));
      else setError(err);
    } finally {
      setBusy(false);
    }
  }
  async function remove(id: string) {
    setError(null);
    try {
      await api.adminDeletePasskey({ id });
      await refresh();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <Card withBorder component="section" aria-labelledby="op-passkeys">
      <Stack>
        <Title order={2} size="h4" id="op-passkeys">
          {t('console.operators.myPasskeys')}
        </Title>
        <Loaded query={q}>
          {(data) => (
            <DataTable
              caption={t('console.operators.passkeysCaption')}
              rows={data.items}
              rowKey={(p) => p.id}
              empty={t('console.operators.noPasskeys')}
              columns={[
                { header: t('console.operators.name'), cell: (p) => p.name },
                { header: t('console.operators.kind'), cell: (p) => p.transports.join(', ') || '—' },
                { header: t('console.operators.added'), cell: (p) => when(p.createdAt) },
                { header: t('console.operators.lastUsed'), cell: (p) => when(p.lastUsedAt) },
                {
                  header: t('console.operators.actions'),
                  cell: (p) => (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => void remove(p.id)}
                      aria-label={t('console.operators.removeLabel', { name: p.name })}
                    >
                      {t('console.operators.remove')}
                    </Button>
                  ),
                },
              ]}
            />
          )}
        </Loaded>
        <Group align="end">
          <TextInput
            label={t('console.operators.newPasskeyName')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={60}
          />
          <Button onClick={() => void add()} loading={busy}>
            {t('console.operators.addPasskey')}
          </Button>
        </Group>
        {notice && (
          <Alert color="blue" role="status">
            {notice}
          </Alert>
        )}
        <Failure error={error} />
      </Stack>
      {stepUp.modal}
    </Card>
  );
}
