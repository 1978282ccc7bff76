import { Alert, Anchor, Badge, Button, Card, Group, NumberInput, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { newIdempotencyKey } from '../../api/client';
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
import * as api from '../../api/calls';

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
  const { t } = useTranslation();
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
          <Anchor component={ConsoleLink} link={{ to: '/console/customers' }} size="sm">
            {t('console.customer.back')}
          </Anchor>
          <ScreenTitle title={c.profile.email}>
            {!can(c.frozen ? 'adminUnfreezeCustomer' : 'adminFreezeCustomer') ? null : c.frozen ? (
              <Button variant="light" onClick={() => setDialog('unfreeze')}>
                {t('console.customer.unfreeze')}
              </Button>
            ) : (
              <Button color="red" variant="light" onClick={() => setDialog('freeze')}>
                {t('console.customer.freeze')}
              </Button>
            )}
            {can('adminSignOutCustomer') && (
              <Button variant="default" onClick={() => setDialog('signout')}>
                {t('console.customer.signOutEverywhere')}
              </Button>
            )}
          </ScreenTitle>
          {c.frozen && c.freeze && (
            <Alert color="red" title={t('console.customer.frozen')} role="status">
              {t('console.customer.frozenBody', { when: when(c.freeze.frozenAt), reason: c.freeze.reason })}
            </Alert>
          )}
          {notice && (
            <Alert
              color="blue"
              role="status"
              withCloseButton
              closeButtonLabel={t('console.customer.dismiss')}
              onClose={() => setNotice(null)}
            >
              {notice}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Part id="c-profile" title={t('console.customer.profile')}>
              <Stack gap={4}>
                <Text size="sm">{t('console.customer.username', { value: c.profile.username ? `@${c.profile.username}` : '—' })}</Text>
                <Text size="sm">{t('console.customer.name', { value: c.profile.fullName ?? '—' })}</Text>
                <Text size="sm">
                  {t('console.customer.phone', { value: c.profile.phone ?? '—' })}{' '}
                  {c.profile.phoneVerified && <Badge size="xs">{t('console.customer.verified')}</Badge>}
                </Text>
                <Text size="sm">{t('console.customer.kycTier', { value: c.kyc.tier })}</Text>
                <Text size="sm">{t('console.customer.status', { value: c.frozen ? 'frozen' : c.profile.status })}</Text>
                <Text size="sm">{t('console.customer.joined', { value: when(c.profile.createdAt) })}</Text>
              </Stack>
            </Part>
            <Part id="c-wallet" title={t('console.customer.wallet', { balance: money(c.wallet.balance) })}>
              {can('adminAdjustWallet') && <Adjust userId={userId} onDone={(m) => (setNotice(m), void refresh())} />}
            </Part>
          </SimpleGrid>
          <Part id="c-ledger" title={t('console.customer.ledger')}>
            <DataTable
              caption={t('console.customer.newestFirst')}
              rows={c.wallet.recent}
              rowKey={(l) => `${l.reference}-${l.createdAt}-${l.amount}`}
              empty={t('console.customer.noLedger')}
              columns={[
                { header: t('console.customer.reference'), cell: (l) => l.reference },
                { header: t('console.customer.type'), cell: (l) => l.type.replace(/_/g, ' ') },
                { header: t('console.customer.amount'), cell: (l) => money(l.amount) },
                { header: t('console.customer.balanceAfter'), cell: (l) => money(l.balanceAfter) },
                { header: t('console.customer.description'), cell: (l) => l.description },
                { header: t('console.customer.when'), cell: (l) => when(l.createdAt) },
              ]}
            />
          </Part>
          <Part id="c-purchases" title={t('console.customer.purchases')}>
            <DataTable
              caption={t('console.customer.newestFirst')}
              rows={c.purchases}
              rowKey={(p) => p.id}
              empty={t('console.customer.noPurchases')}
              columns={[
                { header: t('console.customer.reference'), cell: (p) => <ReferenceLink reference={p.reference} /> },
                {
                  header: t('console.customer.service'),
                  cell: (p) => t('console.customer.serviceAt', { service: p.service, provider: p.provider }),
                },
                { header: t('console.customer.recipient'), cell: (p) => p.recipient },
                { header: t('console.customer.amount'), cell: (p) => money(p.amount) },
                { header: t('console.customer.statusHeader'), cell: (p) => <StatusBadge status={p.status} /> },
                { header: t('console.customer.when'), cell: (p) => when(p.createdAt) },
              ]}
            />
          </Part>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Part id="c-topups" title={t('console.customer.topUps')}>
              <DataTable
                caption={t('console.customer.newestFirst')}
                rows={c.topups}
                rowKey={(u) => u.reference}
                empty={t('console.customer.noTopUps')}
                columns={[
                  { header: t('console.customer.reference'), cell: (u) => <ReferenceLink reference={u.reference} /> },
                  { header: t('console.customer.amount'), cell: (u) => money(u.amount) },
                  { header: t('console.customer.statusHeader'), cell: (u) => <StatusBadge status={u.status} /> },
                  { header: t('console.customer.when'), cell: (u) => when(u.createdAt) },
                ]}
              />
            </Part>
            <Part id="c-kyc" title={t('console.customer.kyc')}>
              <DataTable
                caption={t('console.customer.kycCaption')}
                rows={c.kyc.submissions}
                rowKey={(s) => s.id}
                empty={t('console.customer.noKyc')}
                columns={[
                  {
                    header: t('console.customer.tier'),
                    cell: (s) => (
                      <Anchor
                        component={ConsoleLink}
                        link={{ to: '/console/kyc', search: { status: s.status as 'pending' | 'approved' | 'rejected', id: s.id } }}
                      >
                        {t('console.customer.tierN', { tier: s.tier })}
                      </Anchor>
                    ),
                  },
                  { header: t('console.customer.statusHeader'), cell: (s) => <StatusBadge status={s.status} /> },
                  { header: t('console.customer.reason'), cell: (s) => s.reason ?? '—' },
                  { header: t('console.customer.submitted'), cell: (s) => when(s.createdAt) },
                ]}
              />
            </Part>
          </SimpleGrid>
          <Part id="c-sessions" title={t('console.customer.sessions', { count: c.devices.length })}>
            <DataTable
              caption={t('console.customer.sessionsCaption')}
              rows={c.sessions}
              rowKey={(s) => s.id}
              empty={t('console.customer.noSessions')}
              columns={[
                { header: t('console.customer.statusHeader'), cell: (s) => <StatusBadge status={s.status} /> },
                { header: t('console.customer.method'), cell: (s) => s.method.replace(/_/g, ' ') },
                { header: t('console.customer.device'), cell: (s) => <Text size="xs">{s.userAgent ?? '—'}</Text> },
                { header: t('console.customer.address'), cell: (s) => s.ip ?? '—' },
                { header: t('console.customer.started'), cell: (s) => when(s.createdAt) },
                { header: t('console.customer.ended'), cell: (s) => s.endedReason?.replace(/_/g, ' ') ?? '—' },
              ]}
            />
          </Part>
          <ReasonDialog
            opened={dialog === 'freeze' || dialog === 'unfreeze'}
            title={t(dialog === 'freeze' ? 'console.customer.freezeTitle' : 'console.customer.unfreezeTitle', { email: c.profile.email })}
            confirm={t(dialog === 'freeze' ? 'console.customer.freeze' : 'console.customer.unfreeze')}
            color={dialog === 'freeze' ? 'red' : undefined}
            onClose={() => setDialog(null)}
            onConfirm={async (reason) => {
              const call = dialog === 'freeze' ? api.adminFreezeCustomer : api.adminUnfreezeCustomer;
              await stepUp.withGrant((grantToken) => call({ userId, reason: reason ?? '' }, grantToken ? { grantToken } : {}));
              setNotice(t(dialog === 'freeze' ? 'console.customer.frozenNotice' : 'console.customer.unfrozenNotice'));
              await refresh();
            }}
          />
          <ReasonDialog
            opened={dialog === 'signout'}
            optional
            label={t('console.customer.note')}
            title={t('console.customer.signOutTitle', { email: c.profile.email })}
            confirm={t('console.customer.signOutEverywhere')}
            onClose={() => setDialog(null)}
            onConfirm={async () => {
              const r = await stepUp.withGrant((grantToken) => api.adminSignOutCustomer({ userId }, grantToken ? { grantToken } : {}));
              setNotice(t('console.customer.sessionsEnded', { count: r.sessionsEnded }));
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
  const { t } = useTranslation();
  const form = useSchemaForm(adjustSchema, { amount: '' as number | '', reason: '' });
  const stepUp = useOperatorStepUp();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <form
        noValidate
        aria-label={t('console.customer.adjustLabel')}
        onSubmit={form.onSubmit(async (v) => {
          setBusy(true);
          setError(null);
          const key = newIdempotencyKey();
          try {
            const r = await stepUp.withGrant((grantToken) =>
              api.adminAdjustWallet(
                { userId, amount: Number(v.amount), reason: v.reason.trim() },
                { idempotencyKey: key, ...(grantToken ? { grantToken } : {}) },
              ),
            );
            form.reset();
            onDone(
              r.status === 'pending'
                ? t('console.customer.adjustPending', { amount: money(r.amount) })
                : t('console.customer.adjusted', { amount: money(r.amount), balance: money(r.balance) }),
            );
          } catch (err) {
            if (!showServerIssues(form, err)) setError(err);
          } finally {
            setBusy(false);
          }
        })}
      >
        <Stack gap="xs">
          <NumberInput label={t('console.customer.adjustAmount')} decimalScale={2} {...form.getInputProps('amount')} />
          <Textarea label={t('console.customer.reason')} autosize minRows={2} {...form.getInputProps('reason')} />
          <Failure error={error} />
          <Group>
            <Button type="submit" loading={busy}>
              {t('console.customer.adjust')}
            </Button>
          </Group>
        </Stack>
      </form>
      {stepUp.modal}
    </>
  );
}
