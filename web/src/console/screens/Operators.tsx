import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, post } from '../../api/client';
import { adminQueries, consoleQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { DataTable, Loaded, ScreenTitle, when } from '../ui';

/** Operators: their sessions (idle timeout, revocable) and this operator's passkeys. */
export function Operators() {
  return (
    <Stack>
      <ScreenTitle title="Operators" />
      <Sessions />
      <Passkeys />
    </Stack>
  );
}

function Sessions() {
  const q = useQuery(consoleQueries.operatorSessions({}));
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  async function revoke(sessionId: string) {
    setError(null);
    try {
      await post('/_serverFn/adminRevokeOperatorSessionBearerAdmin', { sessionId });
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'operators'] });
    } catch (err) {
      setError(err);
    }
  }
  return (
    <Card withBorder component="section" aria-labelledby="op-sessions">
      <Stack>
        <Title order={2} size="h4" id="op-sessions">
          Operator sessions
        </Title>
        <Failure error={error} />
        <Loaded query={q}>
          {(data) => (
            <DataTable
              caption="Open operator sessions; each ends after its idle time"
              rows={data.items}
              rowKey={(s) => s.sessionId}
              empty="No open sessions."
              columns={[
                { header: 'Operator', cell: (s) => `${s.email}${s.current ? ' (this session)' : ''}` },
                { header: 'Signed in with', cell: (s) => s.method.replace(/_/g, ' ') },
                { header: 'Address', cell: (s) => s.ip ?? '—' },
                { header: 'Device', cell: (s) => <Text size="xs">{s.userAgent ?? '—'}</Text> },
                { header: 'Last seen', cell: (s) => when(s.lastSeenAt) },
                { header: 'Idle end', cell: (s) => when(s.idleEndsAt) },
                {
                  header: 'Actions',
                  cell: (s) =>
                    s.current ? (
                      '—'
                    ) : (
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => void revoke(s.sessionId)}
                        aria-label={`End the session of ${s.email}`}
                      >
                        End session
                      </Button>
                    ),
                },
              ]}
            />
          )}
        </Loaded>
      </Stack>
    </Card>
  );
}

/** This operator's passkeys (WebAuthn): a second factor and a step-up method. */
function Passkeys() {
  const q = useQuery(consoleQueries.passkeys());
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
      const { options } = await post('/_serverFn/adminPasskeyRegisterOptionsBearerAdmin', {});
      const response = await startRegistration({ optionsJSON: options as never });
      const r = await post('/_serverFn/adminPasskeyRegisterBearerAdmin', {
        response: response as never,
        ...(name.trim() ? { name: name.trim() } : {}),
      });
      setNotice(`Passkey "${r.name}" added.`);
      setName('');
      await refresh();
    } catch (err) {
      // The browser's own refusal (no authenticator, cancelled) is not the service's: say what it said.
      if (err instanceof Error && !(err instanceof ApiError)) setNotice(`The browser did not add a passkey: ${err.message}`);
      else setError(err);
    } finally {
      setBusy(false);
    }
  }
  async function remove(id: string) {
    setError(null);
    try {
      await post('/_serverFn/adminDeletePasskeyBearerAdmin', { id });
      await refresh();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <Card withBorder component="section" aria-labelledby="op-passkeys">
      <Stack>
        <Title order={2} size="h4" id="op-passkeys">
          My passkeys
        </Title>
        <Loaded query={q}>
          {(data) => (
            <DataTable
              caption="Passkeys of this operator"
              rows={data.items}
              rowKey={(p) => p.id}
              empty="No passkeys yet."
              columns={[
                { header: 'Name', cell: (p) => p.name },
                { header: 'Kind', cell: (p) => p.transports.join(', ') || '—' },
                { header: 'Added', cell: (p) => when(p.createdAt) },
                { header: 'Last used', cell: (p) => when(p.lastUsedAt) },
                {
                  header: 'Actions',
                  cell: (p) => (
                    <Button size="xs" variant="default" onClick={() => void remove(p.id)} aria-label={`Remove passkey ${p.name}`}>
                      Remove
                    </Button>
                  ),
                },
              ]}
            />
          )}
        </Loaded>
        <Group align="end">
          <TextInput label="New passkey's name (optional)" value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={60} />
          <Button onClick={() => void add()} loading={busy}>
            Add a passkey
          </Button>
        </Group>
        {notice && (
          <Alert color="blue" role="status">
            {notice}
          </Alert>
        )}
        <Failure error={error} />
      </Stack>
    </Card>
  );
}
