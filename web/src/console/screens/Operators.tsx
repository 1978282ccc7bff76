import { Alert, Badge, Button, Card, CloseButton, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import type { OperatorRole } from '../../api/operation-roles';
import { ApiError, post } from '../../api/client';
import { adminQueries, consoleQueries, operatorQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { roleOptions } from '../role-options';
import { useCan } from '../roles';
import { useOperatorStepUp } from '../step-up';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { ScreenTitle } from '../../components/ScreenTitle';
import { when } from '../../app/format';
import * as ops from '../../api/operations';
import { emailSchema } from '../../api/schemas';
import { useSchemaForm } from '../../components/form';

/** adminGrantRole's input: the account's e-mail (the service's rule) and a role from the list. */
const grantSchema = emailSchema.extend({ role: z.string().min(1) });

/**
 * Operators: who holds which role (granted and revoked by admins), their sessions (idle timeout, revocable), and this
 * operator's passkeys; each part for an operator who may read it.
 */
export function Operators() {
  const can = useCan();
  return (
    <Stack>
      <ScreenTitle title="Operators" />
      {can('adminListOperators') && <Roles />}
      {can('adminListInvitations') && <Invitations />}
      {can('adminListOperatorSessions') && <Sessions />}
      <Passkeys />
    </Stack>
  );
}

type Role = OperatorRole;
/** The roles to grant and what each opens, from the generated role table. */
const ROLES = roleOptions();

function Roles() {
  const q = useQuery(operatorQueries.operators());
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const form = useSchemaForm(grantSchema, { email: '', role: 'support' as Role }, { email: 'fields.email' });
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'operators'] });
  async function run(action: () => Promise<unknown>) {
    setError(null);
    setNotice(null);
    try {
      await action();
      await refresh();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <Card withBorder component="section" aria-labelledby="op-roles">
      <Stack>
        <Title order={2} size="h4" id="op-roles">
          Operators and roles
        </Title>
        <Loaded query={q}>
          {(data) => (
            <DataTable
              caption="Operators and the roles they hold"
              rows={data.items}
              rowKey={(o) => o.userId}
              columns={[
                { header: 'Operator', cell: (o) => o.email },
                {
                  header: 'Roles',
                  cell: (o) => (
                    <Group gap={4}>
                      {o.roles.map((r) => (
                        <Badge
                          key={r}
                          variant="light"
                          rightSection={
                            o.configAdmin && r === 'admin' ? undefined : (
                              <CloseButton
                                size="xs"
                                aria-label={`Revoke ${r} from ${o.email}`}
                                onClick={() =>
                                  void run(() =>
                                    stepUp.withGrant((grantToken) =>
                                      post(ops.adminRevokeRole, { userId: o.userId, role: r }, grantToken ? { grantToken } : {}),
                                    ),
                                  )
                                }
                              />
                            )
                          }
                        >
                          {r}
                        </Badge>
                      ))}
                      {o.configAdmin && (
                        <Text size="xs" c="dimmed">
                          (admin by ADMIN_EMAILS)
                        </Text>
                      )}
                    </Group>
                  ),
                },
                {
                  header: 'Second factor',
                  cell: (o) =>
                    [o.twoFactor.totp && 'authenticator', o.twoFactor.passkeys > 0 && `${o.twoFactor.passkeys} passkey(s)`]
                      .filter(Boolean)
                      .join(', ') || 'none',
                },
              ]}
            />
          )}
        </Loaded>
        <form
          aria-label="Grant a role"
          noValidate
          onSubmit={form.onSubmit(({ email, role }) => {
            void run(async () => {
              const r = await stepUp.withGrant((grantToken) =>
                post(ops.adminGrantRole, { email: email.trim(), role }, grantToken ? { grantToken } : {}),
              );
              // An e-mail with no account yet is invited: the role is theirs at their first sign-in.
              setNotice(
                r.invitation
                  ? `Invitation sent to ${r.invitation.email}: the ${r.invitation.role} role is theirs when they first sign in.`
                  : `${r.operator?.email} now holds ${role}.`,
              );
              form.reset();
            });
          })}
        >
          <Group align="end">
            <TextInput
              label="Account e-mail"
              description="An e-mail with no account yet is invited"
              type="email"
              required
              {...form.getInputProps('email')}
              w={260}
            />
            <Select label="Role" data={ROLES} {...form.getInputProps('role')} allowDeselect={false} w={320} />
            <Button type="submit">Grant role</Button>
          </Group>
        </form>
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

/** Pending invitations (issue 44): an e-mail with no account yet, given a role at its first sign-in; revocable. */
function Invitations() {
  const q = useQuery(operatorQueries.invitations());
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  async function revoke(id: string) {
    setError(null);
    try {
      await stepUp.withGrant((grantToken) => post(ops.adminRevokeInvitation, { id }, grantToken ? { grantToken } : {}));
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'operators'] });
    } catch (err) {
      setError(err);
    }
  }
  return (
    <Card withBorder component="section" aria-labelledby="op-invitations">
      <Stack>
        <Title order={2} size="h4" id="op-invitations">
          Pending invitations
        </Title>
        <Failure error={error} />
        <Loaded query={q}>
          {(data) => (
            <DataTable
              caption="Invitations waiting for a first sign-in"
              rows={data.items}
              rowKey={(i) => i.id}
              empty="No pending invitations."
              columns={[
                { header: 'E-mail', cell: (i) => i.email },
                { header: 'Role', cell: (i) => i.role },
                { header: 'Invited by', cell: (i) => i.invitedBy },
                { header: 'Expires', cell: (i) => when(i.expiresAt) },
                {
                  header: 'Actions',
                  cell: (i) => (
                    <Button size="xs" variant="default" onClick={() => void revoke(i.id)} aria-label={`Revoke invitation of ${i.email}`}>
                      Revoke
                    </Button>
                  ),
                },
              ]}
            />
          )}
        </Loaded>
      </Stack>
      {stepUp.modal}
    </Card>
  );
}

function Sessions() {
  const q = useQuery(consoleQueries.operatorSessions({}));
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  async function revoke(sessionId: string) {
    setError(null);
    try {
      await stepUp.withGrant((grantToken) => post(ops.adminRevokeOperatorSession, { sessionId }, grantToken ? { grantToken } : {}));
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
                      <Button size="xs" variant="default" onClick={() => void revoke(s.sessionId)} aria-label={`End session of ${s.email}`}>
                        End session
                      </Button>
                    ),
                },
              ]}
            />
          )}
        </Loaded>
      </Stack>
      {stepUp.modal}
    </Card>
  );
}

/** This operator's passkeys (WebAuthn): a second factor and a step-up method. */
function Passkeys() {
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
        const { options } = await post(ops.adminPasskeyRegisterOptions, {}, opts);
        const response = await startRegistration({ optionsJSON: options as never });
        return post(ops.adminPasskeyRegister, { response: response as never, ...(name.trim() ? { name: name.trim() } : {}) }, opts);
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
      await post(ops.adminDeletePasskey, { id });
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
      {stepUp.modal}
    </Card>
  );
}
