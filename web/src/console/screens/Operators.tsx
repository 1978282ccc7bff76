import { Alert, Badge, Button, Card, CloseButton, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import type { OperatorRole } from '../../api/operation-roles';
import { adminQueries, consoleQueries, operatorQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { roleOptions } from '../role-options';
import { useCan, useOperatorRoles } from '../roles';
import { useOperatorStepUp } from '../step-up';
import { Passkeys } from './OperatorPasskeys';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { ScreenTitle } from '../../components/ScreenTitle';
import { when } from '../../app/format';
import * as api from '../../api/calls';
import { emailSchema } from '../../api/schemas';
import { useSchemaForm } from '../../components/form';

/** adminGrantRole's input: the account's e-mail (the service's rule) and a role from the list. */
const grantSchema = emailSchema.extend({ role: z.string().min(1) });

/**
 * Operators: who holds which role (granted and revoked by admins), their sessions (idle timeout, revocable), and this
 * operator's passkeys; each part for an operator who may read it.
 */
export function Operators() {
  const { t } = useTranslation();
  const can = useCan();
  return (
    <Stack>
      <ScreenTitle title={t('console.operators.title')} />
      {can('adminListOperators') && <Roles />}
      {can('adminListInvitations') && <Invitations />}
      {can('adminListOperatorSessions') && <Sessions />}
      <Passkeys />
    </Stack>
  );
}

type Role = OperatorRole;
/** The roles to grant and what each opens, from the generated role table. */

function Roles() {
  const { t } = useTranslation();
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
          {t('console.operators.roles')}
        </Title>
        <Loaded query={q}>
          {(data) => (
            <DataTable
              caption={t('console.operators.rolesCaption')}
              rows={data.items}
              rowKey={(o) => o.userId}
              columns={[
                { header: t('console.operators.operator'), cell: (o) => o.email },
                {
                  header: t('console.operators.rolesHeader'),
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
                                aria-label={t('console.operators.revokeLabel', { role: r, email: o.email })}
                                onClick={() =>
                                  void run(() =>
                                    stepUp.withGrant((grantToken) =>
                                      api.adminRevokeRole({ userId: o.userId, role: r }, grantToken ? { grantToken } : {}),
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
                          {t('console.operators.configAdmin')}
                        </Text>
                      )}
                    </Group>
                  ),
                },
                {
                  header: t('console.operators.secondFactor'),
                  cell: (o) =>
                    [
                      o.twoFactor.totp && t('console.operators.authenticator'),
                      o.twoFactor.passkeys > 0 && t('console.operators.passkeys', { count: o.twoFactor.passkeys }),
                    ]
                      .filter(Boolean)
                      .join(', ') || t('console.operators.none'),
                },
              ]}
            />
          )}
        </Loaded>
        <form
          aria-label={t('console.operators.grantLabel')}
          noValidate
          onSubmit={form.onSubmit(({ email, role }) => {
            void run(async () => {
              const r = await stepUp.withGrant((grantToken) =>
                api.adminGrantRole({ email: email.trim(), role }, grantToken ? { grantToken } : {}),
              );
              // An e-mail with no account yet is invited: the role is theirs at their first sign-in.
              setNotice(
                r.invitation
                  ? t('console.operators.invited', { email: r.invitation.email, role: r.invitation.role })
                  : t('console.operators.granted', { email: r.operator?.email, role }),
              );
              form.reset();
            });
          })}
        >
          <Group align="end">
            <TextInput
              label={t('console.operators.accountEmail')}
              description={t('console.operators.accountEmailHint')}
              type="email"
              required
              {...form.getInputProps('email')}
              w={260}
            />
            <Select
              label={t('console.operators.role')}
              data={roleOptions(t)}
              {...form.getInputProps('role')}
              allowDeselect={false}
              w={320}
            />
            <Button type="submit">{t('console.operators.grant')}</Button>
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
  const { t } = useTranslation();
  const q = useQuery(operatorQueries.invitations());
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  async function revoke(id: string) {
    setError(null);
    try {
      await stepUp.withGrant((grantToken) => api.adminRevokeInvitation({ id }, grantToken ? { grantToken } : {}));
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'operators'] });
    } catch (err) {
      setError(err);
    }
  }
  return (
    <Card withBorder component="section" aria-labelledby="op-invitations">
      <Stack>
        <Title order={2} size="h4" id="op-invitations">
          {t('console.operators.invitations')}
        </Title>
        <Failure error={error} />
        <Loaded query={q}>
          {(data) => (
            <DataTable
              caption={t('console.operators.invitationsCaption')}
              rows={data.items}
              rowKey={(i) => i.id}
              empty={t('console.operators.noInvitations')}
              columns={[
                { header: t('console.operators.email'), cell: (i) => i.email },
                { header: t('console.operators.role'), cell: (i) => i.role },
                { header: t('console.operators.invitedBy'), cell: (i) => i.invitedBy },
                { header: t('console.operators.expires'), cell: (i) => when(i.expiresAt) },
                {
                  header: t('console.operators.actions'),
                  cell: (i) => (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => void revoke(i.id)}
                      aria-label={t('console.operators.revokeInvitationLabel', { email: i.email })}
                    >
                      {t('console.operators.revoke')}
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

/**
 * Console sessions: an admin sees and ends every operator's; any other operator their own (issue 44: the phone lost,
 * ended from the laptop). The service narrows the list and the revoke to the caller; the words say which it is.
 */
function Sessions() {
  const { t } = useTranslation();
  const mine = !useOperatorRoles().includes('admin');
  const q = useQuery(consoleQueries.operatorSessions({}));
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  async function revoke(sessionId: string) {
    setError(null);
    try {
      await stepUp.withGrant((grantToken) => api.adminRevokeOperatorSession({ sessionId }, grantToken ? { grantToken } : {}));
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'operators'] });
    } catch (err) {
      setError(err);
    }
  }
  return (
    <Card withBorder component="section" aria-labelledby="op-sessions">
      <Stack>
        <Title order={2} size="h4" id="op-sessions">
          {t(mine ? 'console.operators.mySessions' : 'console.operators.sessions')}
        </Title>
        {mine && <Text size="sm">{t('console.operators.mySessionsIntro')}</Text>}
        <Failure error={error} />
        <Loaded query={q}>
          {(data) => (
            <DataTable
              caption={t(mine ? 'console.operators.mySessionsCaption' : 'console.operators.sessionsCaption')}
              rows={data.items}
              rowKey={(s) => s.sessionId}
              empty={t('console.operators.noSessions')}
              columns={[
                {
                  header: t('console.operators.operator'),
                  cell: (s) => (s.current ? t('console.operators.thisSession', { email: s.email }) : s.email),
                },
                { header: t('console.operators.signedInWith'), cell: (s) => s.method.replace(/_/g, ' ') },
                { header: t('console.operators.address'), cell: (s) => s.ip ?? '—' },
                { header: t('console.operators.device'), cell: (s) => <Text size="xs">{s.userAgent ?? '—'}</Text> },
                { header: t('console.operators.lastSeen'), cell: (s) => when(s.lastSeenAt) },
                { header: t('console.operators.idleEnd'), cell: (s) => when(s.idleEndsAt) },
                {
                  header: t('console.operators.actions'),
                  cell: (s) =>
                    s.current ? (
                      '—'
                    ) : (
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => void revoke(s.sessionId)}
                        aria-label={t('console.operators.endSessionLabel', { email: s.email, when: when(s.lastSeenAt) })}
                      >
                        {t('console.operators.endSession')}
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
