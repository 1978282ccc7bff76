import { Alert, Anchor, Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { type GetOutput } from '../../api/client';
import { adminQueries, consoleQueries } from '../../api/queries/admin';
import { useCan } from '../roles';
import { useOperatorStepUp } from '../step-up';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { ConsoleLink, useSetSearch } from '../nav';
import { ReferenceLink } from '../references';
import { useServerSort } from '../sort';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ReasonDialog } from '../../components/ReasonDialog';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import * as ops from '../../api/operations';
import * as api from '../../api/calls';

const LIMIT = 20;
type Approval = GetOutput<typeof ops.adminListApprovals>['items'][number];
type Status = Approval['status'];
const ACTIONS = {
  wallet_adjustment: 'console.approvals.walletAdjustment',
  vtu_resolution: 'console.approvals.vtuResolution',
  settlement_correction: 'console.approvals.settlementCorrection',
  threshold_change: 'console.approvals.thresholdChange',
  price_setting: 'console.approvals.priceSetting',
} as const satisfies Record<Approval['action'], string>;
const STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const satisfies Status[];

/**
 * Four-eyes: money actions another operator requested wait here. A different operator approves (the action runs
 * once) or rejects with a reason; both ask for step-up. Requests expire after 24 hours. The service sorts the list
 * (requested, amount) from the column headers.
 */
export function Approvals() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/approvals' });
  const setSearch = useSetSearch('/console/approvals');
  const status = (search.status ?? 'pending') as Status;
  const offset = search.offset ?? 0;
  const { sort, column } = useServerSort('/console/approvals', ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const);
  const list = useQuery(consoleQueries.approvals({ status, sort, limit: LIMIT, offset }));
  const qc = useQueryClient();
  const stepUp = useOperatorStepUp();
  const can = useCan();
  const [deciding, setDeciding] = useState<{ a: Approval; decision: 'approve' | 'reject' } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function decide(reason: string | undefined) {
    if (!deciding) return;
    const { a, decision } = deciding;
    const r = await stepUp.withGrant((grantToken) =>
      decision === 'approve'
        ? api.adminApproveRequest({ id: a.id, ...(reason ? { reason } : {}) }, grantToken ? { grantToken } : {})
        : api.adminRejectRequest({ id: a.id, reason: reason ?? '' }, grantToken ? { grantToken } : {}),
    );
    setNotice(
      t('console.approvals.decided', {
        action: t(ACTIONS[a.action]),
        amount: money(a.amount),
        status: t(`console.approvals.${r.approval.status}`),
      }),
    );
    await qc.invalidateQueries({ queryKey: [...adminQueries.all()] });
  }

  return (
    <Stack>
      <ScreenTitle title={t('console.approvals.title')} />
      <Select
        label={t('console.approvals.status')}
        data={STATUSES.map((s) => ({ value: s, label: t(`console.approvals.${s}`) }))}
        value={status}
        onChange={(v) => setSearch({ status: v ?? undefined })}
        allowDeselect={false}
        w={160}
      />
      {notice && (
        <Alert color="blue" role="status" withCloseButton closeButtonLabel={t('console.approvals.dismiss')} onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <Loaded query={list}>
        {(data) => (
          <Stack>
            <DataTable
              caption={t('console.approvals.caption', { status: t(`console.approvals.${status}`) })}
              rows={data.items}
              rowKey={(a) => a.id}
              empty={t('console.approvals.empty')}
              columns={[
                { header: t('console.approvals.action'), cell: (a) => t(ACTIONS[a.action]) },
                {
                  header: t('console.approvals.amount'),
                  cell: (a) => money(a.amount),
                  sort: column({ desc: 'amount_desc', asc: 'amount_asc' }),
                },
                {
                  header: t('console.approvals.customer'),
                  cell: (a) =>
                    a.customerId ? (
                      <Anchor
                        component={ConsoleLink}
                        link={{ to: '/console/customers/$userId', params: { userId: a.customerId } }}
                        size="sm"
                      >
                        {a.customerEmail ?? a.customerId}
                      </Anchor>
                    ) : (
                      '—'
                    ),
                },
                { header: t('console.approvals.askedBy'), cell: (a) => a.makerEmail ?? a.makerId },
                { header: t('console.approvals.about'), cell: (a) => <Subject a={a} /> },
                { header: t('console.approvals.reason'), cell: (a) => a.reason },
                {
                  // When it was asked and, under it, when it lapses: one column, so the decisions stay in view on a laptop.
                  header: t('console.approvals.requested'),
                  cell: (a) => (
                    <Stack gap={0}>
                      <span>{when(a.createdAt)}</span>
                      <Text size="xs" c="dimmed">
                        {t('console.approvals.expiresAt', { when: when(a.expiresAt) })}
                      </Text>
                    </Stack>
                  ),
                  sort: column({ desc: 'newest', asc: 'oldest' }),
                },
                {
                  header: t('console.approvals.decision'),
                  cell: (a) =>
                    a.status === 'pending' && can('adminApproveRequest') ? (
                      // One above the other: the column stays narrow enough that both are in view on a laptop too.
                      <Stack gap={4} align="stretch">
                        <Button
                          size="xs"
                          onClick={() => setDeciding({ a, decision: 'approve' })}
                          aria-label={t('console.approvals.approveLabel', { action: t(ACTIONS[a.action]), amount: money(a.amount) })}
                        >
                          {t('console.approvals.approve')}
                        </Button>
                        <Button
                          size="xs"
                          color="red"
                          variant="light"
                          onClick={() => setDeciding({ a, decision: 'reject' })}
                          aria-label={t('console.approvals.rejectLabel', { action: t(ACTIONS[a.action]), amount: money(a.amount) })}
                        >
                          {t('console.approvals.reject')}
                        </Button>
                      </Stack>
                    ) : (
                      <Stack gap={2}>
                        <StatusBadge status={a.status} />
                        {a.decisionReason && <Text size="xs">{a.decisionReason}</Text>}
                      </Stack>
                    ),
                },
              ]}
            />
            <Pager
              offset={offset}
              limit={LIMIT}
              count={data.items.length}
              hasMore={data.hasMore}
              onChange={(o) => setSearch({ offset: o })}
            />
          </Stack>
        )}
      </Loaded>
      <Thresholds />
      <ReasonDialog
        opened={deciding !== null}
        optional={deciding?.decision === 'approve'}
        title={
          deciding
            ? t('console.approvals.dialogTitle', {
                decision: t(deciding.decision === 'approve' ? 'console.approvals.approve' : 'console.approvals.reject'),
                action: t(ACTIONS[deciding.a.action]),
                amount: money(deciding.a.amount),
              })
            : ''
        }
        confirm={t(deciding?.decision === 'approve' ? 'console.approvals.approve' : 'console.approvals.reject')}
        color={deciding?.decision === 'reject' ? 'red' : undefined}
        onClose={() => setDeciding(null)}
        onConfirm={decide}
      >
        {deciding && <Text size="sm">{t('console.approvals.requestedReason', { reason: deciding.a.reason })}</Text>}
      </ReasonDialog>
      {stepUp.modal}
    </Stack>
  );
}

/**
 * What a request is about, with a link where the console has a screen for it: the purchase by its reference (its page,
 * with its reports and threads), the top-up settlement by its reference (the top-up, or a transfer's settlement) and
 * its customer's settlements, or the thresholds asked for.
 */
function Subject({ a }: { a: Approval }) {
  const { t } = useTranslation();
  const d = a.details;
  if (a.action === 'vtu_resolution')
    return (
      <Text size="xs">
        {t('console.approvals.purchase')}{' '}
        {a.reference ? <ReferenceLink reference={a.reference} /> : String(d.transactionId ?? a.subjectId).slice(0, 8)}
        {t('console.approvals.markOutcome', { outcome: String(d.outcome) })}
        {d.note ? ` (${String(d.note)})` : ''}
      </Text>
    );
  if (a.action === 'settlement_correction')
    return (
      <Text size="xs">
        {t('console.approvals.settlement')}{' '}
        {a.reference?.startsWith('top_') ? (
          <ReferenceLink reference={a.reference} />
        ) : a.reference ? (
          <Anchor component={ConsoleLink} link={{ to: '/console/topups', search: { kind: 'settlements', reference: a.reference } }}>
            {a.reference}
          </Anchor>
        ) : null}
        {a.customerEmail && (
          <>
            {' '}
            {t('console.approvals.of')}{' '}
            <Anchor component={ConsoleLink} link={{ to: '/console/topups', search: { kind: 'settlements', email: a.customerEmail } }}>
              {a.customerEmail}
            </Anchor>
          </>
        )}
      </Text>
    );
  const facts = Object.entries(d).filter(([k]) => !['userId', 'reason', 'amount'].includes(k));
  // A wallet adjustment is about its customer and its reason, both in their own columns.
  return <Text size="xs">{facts.length ? facts.map(([k, v]) => `${k}: ${v}`).join(', ') : '—'}</Text>;
}

// adminUpdateApprovalSettings: naira thresholds from 0 (every one waits) to ₦10,000,000.
const threshold = z.number().min(0).max(10_000_000);
const thresholdSchema = z.object({ walletAdjustment: threshold, vtuResolution: threshold, settlementCorrection: threshold });

/** The thresholds per action: amounts below take effect at once, the rest wait for a second operator. */
function Thresholds() {
  const { t } = useTranslation();
  const q = useQuery(consoleQueries.approvalSettings());
  return (
    <Card withBorder component="section" aria-labelledby="thresholds">
      <Title order={2} size="h4" id="thresholds" mb="sm">
        {t('console.approvals.thresholds')}
      </Title>
      <Loaded query={q}>{(s) => <ThresholdForm initial={s} />}</Loaded>
    </Card>
  );
}

type Settings = GetOutput<typeof ops.adminGetApprovalSettings>;
const SAVED = {
  applied: 'console.approvals.saved',
  pending: 'console.approvals.savedPending',
  scheduled: 'console.approvals.savedScheduled',
} as const;

function ThresholdForm({ initial }: { initial: Settings }) {
  const { t } = useTranslation();
  const form = useSchemaForm(thresholdSchema, {
    walletAdjustment: initial.walletAdjustment,
    vtuResolution: initial.vtuResolution,
    settlementCorrection: initial.settlementCorrection,
  });
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const can = useCan();
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<keyof typeof SAVED | null>(null);
  return (
    <>
      <form
        noValidate
        aria-label={t('console.approvals.formLabel')}
        onSubmit={form.onSubmit(async (v) => {
          setError(null);
          setSaved(null);
          try {
            const out = await stepUp.withGrant((grantToken) => api.adminUpdateApprovalSettings(v, grantToken ? { grantToken } : {}));
            setSaved(out.change.status);
            await qc.invalidateQueries({ queryKey: consoleQueries.approvalSettings().queryKey });
          } catch (err) {
            if (!showServerIssues(form, err)) setError(err);
          }
        })}
      >
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput
              label={t('console.approvals.walletUnder')}
              min={0}
              thousandSeparator=","
              {...form.getInputProps('walletAdjustment')}
            />
            <NumberInput label={t('console.approvals.vtuUnder')} min={0} thousandSeparator="," {...form.getInputProps('vtuResolution')} />
            <NumberInput
              label={t('console.approvals.settlementUnder')}
              min={0}
              thousandSeparator=","
              {...form.getInputProps('settlementCorrection')}
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {t('console.approvals.zeroHint')}
          </Text>
          <Failure error={error} />
          {saved && (
            <Alert color="green" role="status">
              {t(SAVED[saved])}
            </Alert>
          )}
          {initial.scheduled.map((s) => (
            <Text key={s.setting} size="sm">
              {t('console.approvals.rises', {
                setting: s.setting,
                value: s.value.toLocaleString('en-NG'),
                at: new Date(s.at).toLocaleString('en-NG', { timeZone: 'Africa/Lagos' }),
              })}
            </Text>
          ))}
          {can('adminUpdateApprovalSettings') && (
            <Group>
              <Button type="submit">{t('console.approvals.save')}</Button>
            </Group>
          )}
        </Stack>
      </form>
      {stepUp.modal}
    </>
  );
}
