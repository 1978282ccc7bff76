import { Alert, Anchor, Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { post, type GetOutput } from '../../api/client';
import { adminQueries, consoleQueries } from '../../api/queries/admin';
import { useCan } from '../roles';
import { useOperatorStepUp } from '../step-up';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { ConsoleLink, useScreenSearch } from '../nav';
import { useServerSort } from '../sort';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ReasonDialog } from '../../components/ReasonDialog';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import * as ops from '../../api/operations';

const LIMIT = 20;
type Approval = GetOutput<typeof ops.adminListApprovals>['items'][number];
type Status = Approval['status'];
const ACTIONS: Record<Approval['action'], string> = {
  wallet_adjustment: 'Wallet adjustment',
  vtu_resolution: 'Purchase resolution',
  settlement_correction: 'Settlement correction',
  threshold_change: 'Threshold change',
  price_setting: 'Price setting',
};

/**
 * Four-eyes: money actions another operator requested wait here. A different operator approves (the action runs
 * once) or rejects with a reason; both ask for step-up. Requests expire after 24 hours. The service sorts the list
 * (requested, amount) from the column headers.
 */
export function Approvals() {
  const search = useScreenSearch();
  const status = (search.text('status') || 'pending') as Status;
  const offset = search.num('offset', 0);
  const { sort, column } = useServerSort(['newest', 'oldest', 'amount_desc', 'amount_asc'] as const);
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
        ? post(ops.adminApproveRequest, { id: a.id, ...(reason ? { reason } : {}) }, grantToken ? { grantToken } : {})
        : post(ops.adminRejectRequest, { id: a.id, reason: reason ?? '' }, grantToken ? { grantToken } : {}),
    );
    setNotice(`${ACTIONS[a.action]} of ${money(a.amount)}: ${r.approval.status}.`);
    await qc.invalidateQueries({ queryKey: [...adminQueries.all()] });
  }

  return (
    <Stack>
      <ScreenTitle title="Approvals" />
      <Select
        label="Status"
        data={['pending', 'approved', 'rejected', 'expired']}
        value={status}
        onChange={(v) => search.set({ status: v ?? undefined })}
        allowDeselect={false}
        w={160}
      />
      {notice && (
        <Alert color="blue" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <Loaded query={list}>
        {(data) => (
          <Stack>
            <DataTable
              caption={`${status} approval requests, newest first`}
              rows={data.items}
              rowKey={(a) => a.id}
              empty="No requests."
              columns={[
                { header: 'Action', cell: (a) => ACTIONS[a.action] },
                { header: 'Amount', cell: (a) => money(a.amount), sort: column({ desc: 'amount_desc', asc: 'amount_asc' }) },
                {
                  header: 'Customer',
                  cell: (a) =>
                    a.customerId ? (
                      <Anchor component={ConsoleLink} to={`customers/${a.customerId}`} size="sm">
                        {a.customerEmail ?? a.customerId}
                      </Anchor>
                    ) : (
                      '—'
                    ),
                },
                { header: 'Asked by', cell: (a) => a.makerEmail ?? a.makerId },
                { header: 'About', cell: (a) => <Subject a={a} /> },
                { header: 'Reason', cell: (a) => a.reason },
                { header: 'Requested', cell: (a) => when(a.createdAt), sort: column({ desc: 'newest', asc: 'oldest' }) },
                { header: 'Expires', cell: (a) => when(a.expiresAt) },
                {
                  header: 'Decision',
                  cell: (a) =>
                    a.status === 'pending' && can('adminApproveRequest') ? (
                      <Group gap={4} wrap="nowrap">
                        <Button
                          size="xs"
                          onClick={() => setDeciding({ a, decision: 'approve' })}
                          aria-label={`Approve ${ACTIONS[a.action]} of ${money(a.amount)}`}
                        >
                          Approve
                        </Button>
                        <Button
                          size="xs"
                          color="red"
                          variant="light"
                          onClick={() => setDeciding({ a, decision: 'reject' })}
                          aria-label={`Reject ${ACTIONS[a.action]} of ${money(a.amount)}`}
                        >
                          Reject
                        </Button>
                      </Group>
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
              onChange={(o) => search.set({ offset: o })}
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
            ? `${deciding.decision === 'approve' ? 'Approve' : 'Reject'}: ${ACTIONS[deciding.a.action]} of ${money(deciding.a.amount)}`
            : ''
        }
        confirm={deciding?.decision === 'approve' ? 'Approve' : 'Reject'}
        color={deciding?.decision === 'reject' ? 'red' : undefined}
        onClose={() => setDeciding(null)}
        onConfirm={decide}
      >
        {deciding && <Text size="sm">Requested: {deciding.a.reason}</Text>}
      </ReasonDialog>
      {stepUp.modal}
    </Stack>
  );
}

/**
 * What a request is about, with a link where the console has a screen for it: the purchase (on its customer's page,
 * which lists the purchases), the top-up settlement (Top-ups, by its customer), or the thresholds asked for.
 */
function Subject({ a }: { a: Approval }) {
  const d = a.details;
  if (a.action === 'vtu_resolution')
    return (
      <Text size="xs">
        Purchase {String(d.transactionId ?? a.subjectId).slice(0, 8)}: mark {String(d.outcome)}
        {d.note ? ` (${String(d.note)})` : ''}
      </Text>
    );
  if (a.action === 'settlement_correction' && a.customerEmail)
    return (
      <Anchor component={ConsoleLink} to="topups" search={{ kind: 'settlements', email: a.customerEmail }} size="xs">
        Top-up settlement of {a.customerEmail}
      </Anchor>
    );
  const facts = Object.entries(d).filter(([k]) => !['userId', 'reason', 'amount'].includes(k));
  return <Text size="xs">{facts.length ? facts.map(([k, v]) => `${k}: ${v}`).join(', ') : a.reason}</Text>;
}

// adminUpdateApprovalSettings: naira thresholds from 0 (every one waits) to ₦10,000,000.
const threshold = z.number().min(0).max(10_000_000);
const thresholdSchema = z.object({ walletAdjustment: threshold, vtuResolution: threshold, settlementCorrection: threshold });

/** The thresholds per action: amounts below take effect at once, the rest wait for a second operator. */
function Thresholds() {
  const q = useQuery(consoleQueries.approvalSettings());
  return (
    <Card withBorder component="section" aria-labelledby="thresholds">
      <Title order={2} size="h4" id="thresholds" mb="sm">
        Thresholds
      </Title>
      <Loaded query={q}>{(s) => <ThresholdForm initial={s} />}</Loaded>
    </Card>
  );
}

type Settings = GetOutput<typeof ops.adminGetApprovalSettings>;
const SAVED = {
  applied: 'Thresholds saved.',
  pending: 'Lower thresholds are saved. A higher threshold weakens a control: it waits for another admin on this screen.',
  scheduled: 'Lower thresholds are saved. A higher threshold weakens a control: it takes effect in 24 hours, and every admin was e-mailed.',
} as const;

function ThresholdForm({ initial }: { initial: Settings }) {
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
        aria-label="Approval thresholds"
        onSubmit={form.onSubmit(async (v) => {
          setError(null);
          setSaved(null);
          try {
            const out = await stepUp.withGrant((grantToken) => post(ops.adminUpdateApprovalSettings, v, grantToken ? { grantToken } : {}));
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
              label="Wallet adjustments under (naira)"
              min={0}
              thousandSeparator=","
              {...form.getInputProps('walletAdjustment')}
            />
            <NumberInput
              label="Purchase resolutions under (naira)"
              min={0}
              thousandSeparator=","
              {...form.getInputProps('vtuResolution')}
            />
            <NumberInput
              label="Settlement corrections under (naira)"
              min={0}
              thousandSeparator=","
              {...form.getInputProps('settlementCorrection')}
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            0 means every request waits for a second operator.
          </Text>
          <Failure error={error} />
          {saved && (
            <Alert color="green" role="status">
              {SAVED[saved]}
            </Alert>
          )}
          {initial.scheduled.map((s) => (
            <Text key={s.setting} size="sm">
              {s.setting} rises to ₦{s.value.toLocaleString('en-NG')} at{' '}
              {new Date(s.at).toLocaleString('en-NG', { timeZone: 'Africa/Lagos' })}.
            </Text>
          ))}
          {can('adminUpdateApprovalSettings') && (
            <Group>
              <Button type="submit">Save thresholds</Button>
            </Group>
          )}
        </Stack>
      </form>
      {stepUp.modal}
    </>
  );
}
