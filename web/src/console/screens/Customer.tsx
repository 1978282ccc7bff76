import { Alert, Anchor, Badge, Button, Card, Group, NumberInput, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { z } from 'zod';
import { newIdempotencyKey, post } from '../../api/client';
import { adminQueries, consoleQueries } from '../../api/queries/admin';
import { useOperatorStepUp } from '../step-up';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { ConsoleLink } from '../nav';
import { ReferenceLink } from '../references';
import { useCan } from '../roles';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ReasonDialog } from '../../components/ReasonDialog';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import * as ops from '../../api/operations';

// adminAdjustWallet: a signed naira amount (not 0, at most ₦10,000,000 either way, 2 decimals) and a reason.
const adjustSchema = z.object({
  amount: z
    .number()
    .refine((n) => n !== 0, 'not 0')
    .refine((n) => Math.abs(n) <= 10_000_000),
  reason: z.string().trim().min(3).max(500),
});

function Part({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** One customer: profile, freeze state, KYC, wallet and ledger, sessions, purchases and top-ups; the actions on them. */
export function CustomerPage({ userId }: { userId: string }) {
  const q = useQuery(consoleQueries.customer(userId));
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const [dialog, setDialog] = useState<'freeze' | 'unfreeze' | 'signout' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'customers'] });
  const can = useCan();
  return (
    <Loaded query={q}>
      {(c) => (
        <Stack>
          <Anchor component={ConsoleLink} to="customers" size="sm">
            Back to customers
          </Anchor>
          <ScreenTitle title={c.profile.email}>
            {!can(c.frozen ? 'adminUnfreezeCustomer' : 'adminFreezeCustomer') ? null : c.frozen ? (
              <Button variant="light" onClick={() => setDialog('unfreeze')}>
                Unfreeze
              </Button>
            ) : (
              <Button color="red" variant="light" onClick={() => setDialog('freeze')}>
                Freeze
              </Button>
            )}
            {can('adminSignOutCustomer') && (
              <Button variant="default" onClick={() => setDialog('signout')}>
                Sign out everywhere
              </Button>
            )}
          </ScreenTitle>
          {c.frozen && c.freeze && (
            <Alert color="red" title="Frozen" role="status">
              Since {when(c.freeze.frozenAt)}: {c.freeze.reason}. The customer can sign in and read; money operations are refused.
            </Alert>
          )}
          {notice && (
            <Alert color="blue" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
              {notice}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Part id="c-profile" title="Profile">
              <Stack gap={4}>
                <Text size="sm">Username: {c.profile.username ? `@${c.profile.username}` : '—'}</Text>
                <Text size="sm">Name: {c.profile.fullName ?? '—'}</Text>
                <Text size="sm">
                  Phone: {c.profile.phone ?? '—'} {c.profile.phoneVerified && <Badge size="xs">verified</Badge>}
                </Text>
                <Text size="sm">KYC tier: {c.kyc.tier}</Text>
                <Text size="sm">Status: {c.frozen ? 'frozen' : c.profile.status}</Text>
                <Text size="sm">Joined: {when(c.profile.createdAt)}</Text>
              </Stack>
            </Part>
            <Part id="c-wallet" title={`Wallet: ${money(c.wallet.balance)}`}>
              {can('adminAdjustWallet') && <Adjust userId={userId} onDone={(m) => (setNotice(m), void refresh())} />}
            </Part>
          </SimpleGrid>
          <Part id="c-ledger" title="Recent ledger lines">
            <DataTable
              caption="Newest first"
              rows={c.wallet.recent}
              rowKey={(l) => `${l.reference}-${l.createdAt}-${l.amount}`}
              empty="No ledger lines."
              columns={[
                { header: 'Reference', cell: (l) => l.reference },
                { header: 'Type', cell: (l) => l.type.replace(/_/g, ' ') },
                { header: 'Amount', cell: (l) => money(l.amount) },
                { header: 'Balance after', cell: (l) => money(l.balanceAfter) },
                { header: 'Description', cell: (l) => l.description },
                { header: 'When', cell: (l) => when(l.createdAt) },
              ]}
            />
          </Part>
          <Part id="c-purchases" title="Recent purchases">
            <DataTable
              caption="Newest first"
              rows={c.purchases}
              rowKey={(p) => p.id}
              empty="No purchases."
              columns={[
                { header: 'Reference', cell: (p) => <ReferenceLink reference={p.reference} /> },
                { header: 'Service', cell: (p) => `${p.service} (provider ${p.provider})` },
                { header: 'Recipient', cell: (p) => p.recipient },
                { header: 'Amount', cell: (p) => money(p.amount) },
                { header: 'Status', cell: (p) => <StatusBadge status={p.status} /> },
                { header: 'When', cell: (p) => when(p.createdAt) },
              ]}
            />
          </Part>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Part id="c-topups" title="Recent top-ups">
              <DataTable
                caption="Newest first"
                rows={c.topups}
                rowKey={(t) => t.reference}
                empty="No top-ups."
                columns={[
                  { header: 'Reference', cell: (t) => <ReferenceLink reference={t.reference} /> },
                  { header: 'Amount', cell: (t) => money(t.amount) },
                  { header: 'Status', cell: (t) => <StatusBadge status={t.status} /> },
                  { header: 'When', cell: (t) => when(t.createdAt) },
                ]}
              />
            </Part>
            <Part id="c-kyc" title="KYC submissions">
              <DataTable
                caption="Every tier submitted"
                rows={c.kyc.submissions}
                rowKey={(s) => s.id}
                empty="Nothing submitted."
                columns={[
                  {
                    header: 'Tier',
                    cell: (s) => (
                      <Anchor component={ConsoleLink} to="kyc" search={{ status: s.status, id: s.id }}>
                        Tier {s.tier}
                      </Anchor>
                    ),
                  },
                  { header: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
                  { header: 'Reason', cell: (s) => s.reason ?? '—' },
                  { header: 'Submitted', cell: (s) => when(s.createdAt) },
                ]}
              />
            </Part>
          </SimpleGrid>
          <Part id="c-sessions" title={`Sessions (${c.devices.length} known devices)`}>
            <DataTable
              caption="Sign-ins, newest first"
              rows={c.sessions}
              rowKey={(s) => s.id}
              empty="No sessions."
              columns={[
                { header: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
                { header: 'Method', cell: (s) => s.method.replace(/_/g, ' ') },
                { header: 'Device', cell: (s) => <Text size="xs">{s.userAgent ?? '—'}</Text> },
                { header: 'Address', cell: (s) => s.ip ?? '—' },
                { header: 'Started', cell: (s) => when(s.createdAt) },
                { header: 'Ended', cell: (s) => s.endedReason?.replace(/_/g, ' ') ?? '—' },
              ]}
            />
          </Part>
          <ReasonDialog
            opened={dialog === 'freeze' || dialog === 'unfreeze'}
            title={dialog === 'freeze' ? `Freeze ${c.profile.email}` : `Unfreeze ${c.profile.email}`}
            confirm={dialog === 'freeze' ? 'Freeze' : 'Unfreeze'}
            color={dialog === 'freeze' ? 'red' : undefined}
            onClose={() => setDialog(null)}
            onConfirm={async (reason) => {
              const op = dialog === 'freeze' ? ops.adminFreezeCustomer : ops.adminUnfreezeCustomer;
              await stepUp.withGrant((grantToken) => post(op, { userId, reason: reason ?? '' }, grantToken ? { grantToken } : {}));
              setNotice(dialog === 'freeze' ? 'Frozen: the customer is told, money operations stop.' : 'Unfrozen.');
              await refresh();
            }}
          />
          <ReasonDialog
            opened={dialog === 'signout'}
            optional
            label="Note (optional, not sent)"
            title={`Sign ${c.profile.email} out everywhere`}
            confirm="Sign out everywhere"
            onClose={() => setDialog(null)}
            onConfirm={async () => {
              const r = await stepUp.withGrant((grantToken) =>
                post(ops.adminSignOutCustomer, { userId }, grantToken ? { grantToken } : {}),
              );
              setNotice(`${r.sessionsEnded} session(s) ended.`);
              await refresh();
            }}
          />
          {stepUp.modal}
        </Stack>
      )}
    </Loaded>
  );
}

/** A manual adjustment: credit (positive) or debit (negative); at or above its threshold it waits for a second operator. */
function Adjust({ userId, onDone }: { userId: string; onDone: (message: string) => void }) {
  const form = useSchemaForm(adjustSchema, { amount: '' as number | '', reason: '' });
  const stepUp = useOperatorStepUp();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <form
        aria-label="Adjust the wallet"
        onSubmit={form.onSubmit(async (v) => {
          setBusy(true);
          setError(null);
          const key = newIdempotencyKey();
          try {
            const r = await stepUp.withGrant((grantToken) =>
              post(
                ops.adminAdjustWallet,
                { userId, amount: Number(v.amount), reason: v.reason.trim() },
                { idempotencyKey: key, ...(grantToken ? { grantToken } : {}) },
              ),
            );
            form.reset();
            onDone(
              r.status === 'pending'
                ? `Adjustment of ${money(r.amount)} requested: it waits for a second operator in Approvals.`
                : `Adjusted by ${money(r.amount)}: the balance is ${money(r.balance)}.`,
            );
          } catch (err) {
            if (!showServerIssues(form, err)) setError(err);
          } finally {
            setBusy(false);
          }
        })}
      >
        <Stack gap="xs">
          <NumberInput label="Amount (naira; negative to debit)" decimalScale={2} {...form.getInputProps('amount')} />
          <Textarea label="Reason" autosize minRows={2} {...form.getInputProps('reason')} />
          <Failure error={error} />
          <Group>
            <Button type="submit" loading={busy}>
              Adjust wallet
            </Button>
          </Group>
        </Stack>
      </form>
      {stepUp.modal}
    </>
  );
}
