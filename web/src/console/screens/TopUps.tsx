import { Alert, Anchor, Badge, Button, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { JobProgress } from '../JobProgress';
import { useOperatorStepUp } from '../step-up';
import { ConsoleLink, useSetSearch } from '../nav';
import { ReferenceLink } from '../references';
import { useCan } from '../roles';
import { useServerSort } from '../sort';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ReasonDialog } from '../../components/ReasonDialog';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import * as api from '../../api/calls';
import { settlementCorrectionSchema } from '../../api/schemas';
import type { FieldHints } from '../../components/form';
import i18next from 'i18next';

/** The correction amount's rules in the console's words: not 0, at most ₦10,000,000 either way. */
const CORRECTION_HINTS: FieldHints = {
  amount: (issue) =>
    issue.message?.includes('decimals')
      ? undefined
      : i18next.t(issue.message?.includes('at most 10,000,000') ? 'console.topUps.amountAtMost' : 'console.topUps.amountNotZero'),
};

const LIMIT = 25;
type Kind = 'intents' | 'settlements' | 'events';

/** A settled intent paid less or more than it asked (issue 44): which, and by how much; null when it matches. */
export function paidFlag(p: { amount?: unknown; amountPaid?: unknown; status?: unknown }) {
  if (typeof p.amount !== 'number' || typeof p.amountPaid !== 'number' || p.amountPaid === p.amount) return null;
  return { label: p.amountPaid < p.amount ? ('underpaid' as const) : ('overpaid' as const), by: Math.abs(p.amount - p.amountPaid) };
}

/**
 * Top-ups: the processor's payment intents, settlements and webhook events, searched on the service by reference,
 * e-mail, status and flag and sorted there (created, amount; events have no amount); and reconciliation, which asks the processor about every open intent and settles what it
 * confirms.
 */
export function TopUps() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/topups' });
  const setSearch = useSetSearch('/console/topups');
  const kind = (search.kind ?? 'intents') as Kind;
  const offset = search.offset ?? 0;
  const reference = search.reference ?? '';
  const email = search.email ?? '';
  const status = search.status ?? '';
  const flagged = search.flagged ?? '';
  const paid = search.paid ?? '';
  const sorted = useServerSort('/console/topups', ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const);
  const sort = kind === 'events' && sorted.sort.startsWith('amount') ? 'newest' : sorted.sort;
  const list = useQuery(
    adminQueries.payments({
      kind,
      sort,
      limit: LIMIT,
      offset,
      ...(reference ? { reference } : {}),
      ...(email ? { email } : {}),
      ...(status ? { status } : {}),
      ...(flagged ? { flagged: flagged === 'true' } : {}),
      ...(paid === 'different' && kind === 'intents' ? { paid } : {}),
    }),
  );
  const [draft, setDraft] = useState({ reference, email, status });
  const [correcting, setCorrecting] = useState<{ id: string; reference: string | null } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const stepUp = useOperatorStepUp();
  const can = useCan();
  const qc = useQueryClient();
  // adminCorrectSettlement: a signed naira amount (not 0, at most ₦10,000,000 either way; the dialog's form checks it
  // by the operation's own rule) and a reason.
  async function correct(reason: string | undefined, { amount }: { amount: number | '' }) {
    if (!correcting || amount === '') return;
    const key = newIdempotencyKey();
    const r = await stepUp.withGrant((grantToken) =>
      api.adminCorrectSettlement(
        { settlementId: correcting.id, amount, reason: reason ?? '' },
        { idempotencyKey: key, ...(grantToken ? { grantToken } : {}) },
      ),
    );
    setNotice(
      r.status === 'pending'
        ? t('console.topUps.correctionPending', { amount: money(r.amount) })
        : t('console.topUps.corrected', { amount: money(r.amount), balance: money(r.balance) }),
    );
    await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'payments'] });
  }

  return (
    <Stack>
      <ScreenTitle title={t('console.topUps.title')} />
      {can('adminStartReconciliation') && <Reconciliation />}
      {notice && (
        <Alert color="blue" role="status" withCloseButton closeButtonLabel={t('console.topUps.dismiss')} onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setSearch({ reference: draft.reference.trim(), email: draft.email.trim(), status: draft.status.trim() });
        }}
        aria-label={t('console.topUps.searchLabel')}
      >
        <Group align="end">
          <Select
            label={t('console.topUps.kind')}
            data={[
              { value: 'intents', label: t('console.topUps.intents') },
              { value: 'settlements', label: t('console.topUps.settlements') },
              { value: 'events', label: t('console.topUps.events') },
            ]}
            value={kind}
            onChange={(v) => setSearch({ kind: v ?? undefined })}
            allowDeselect={false}
            w={180}
          />
          <TextInput
            label={t('console.topUps.reference')}
            value={draft.reference}
            onChange={(e) => setDraft({ ...draft, reference: e.currentTarget.value })}
          />
          <TextInput
            label={t('console.topUps.customerEmail')}
            type="email"
            value={draft.email}
            onChange={(e) => setDraft({ ...draft, email: e.currentTarget.value })}
          />
          <TextInput
            label={t('console.topUps.status')}
            value={draft.status}
            onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value })}
            w={140}
          />
          <Select
            label={t('console.topUps.flagged')}
            data={[
              { value: '', label: t('console.topUps.any') },
              { value: 'true', label: t('console.topUps.flaggedOnly') },
              { value: 'false', label: t('console.topUps.notFlagged') },
            ]}
            value={flagged}
            onChange={(v) => setSearch({ flagged: v || undefined })}
            allowDeselect={false}
            w={150}
          />
          <Select
            label={t('console.topUps.amountPaid')}
            data={[
              { value: '', label: t('console.topUps.any') },
              { value: 'different', label: t('console.topUps.different') },
            ]}
            value={paid}
            onChange={(v) => setSearch({ paid: v || undefined, kind: 'intents' })}
            allowDeselect={false}
            w={170}
          />
          <Button type="submit">{t('console.topUps.search')}</Button>
        </Group>
      </form>
      <Loaded query={list}>
        {(data) => (
          <Stack>
            <DataTable
              caption={t(
                kind === 'intents'
                  ? 'console.topUps.captionIntents'
                  : kind === 'settlements'
                    ? 'console.topUps.captionSettlements'
                    : 'console.topUps.captionEvents',
              )}
              rows={data.items}
              rowKey={(p) => `${p.kind}-${p.id}`}
              empty={t('console.topUps.empty')}
              columns={[
                {
                  header: t('console.topUps.reference'),
                  // A settlement's or event's top-up reference opens the top-up; an intent's own row links nowhere new.
                  cell: (p) =>
                    p.reference && p.reference.startsWith('top_') && !(kind === 'intents' && search.reference === p.reference) ? (
                      <ReferenceLink reference={p.reference} />
                    ) : (
                      (p.reference ?? p.event ?? '—')
                    ),
                },
                {
                  header: t('console.topUps.customer'),
                  cell: (p) =>
                    p.userId ? (
                      <Anchor component={ConsoleLink} link={{ to: '/console/customers/$userId', params: { userId: p.userId } }} size="sm">
                        {p.userEmail ?? p.userId}
                      </Anchor>
                    ) : (
                      '—'
                    ),
                },
                {
                  header: t('console.topUps.amount'),
                  cell: (p) =>
                    p.amountPaid != null && p.amountPaid !== p.amount
                      ? t('console.topUps.paidOf', { paid: money(p.amountPaid), amount: money(p.amount) })
                      : money(p.amount ?? p.amountPaid),
                  ...(kind === 'events' ? {} : { sort: sorted.column({ desc: 'amount_desc', asc: 'amount_asc' }) }),
                },
                { header: t('console.topUps.channel'), cell: (p) => p.channel ?? p.settlementKind ?? p.source ?? p.processor },
                {
                  header: t('console.topUps.status'),
                  cell: (p) => (
                    <Group gap={4}>
                      <StatusBadge status={p.status ?? p.outcome ?? 'received'} />
                      {p.flagged && <StatusBadge status="flagged" />}
                      {paidFlag(p) && (
                        <Badge variant="light" color="red">
                          {t('console.topUps.flagBy', { flag: t(`console.topUps.${paidFlag(p)!.label}`), amount: money(paidFlag(p)!.by) })}
                        </Badge>
                      )}
                    </Group>
                  ),
                },
                {
                  header: t('console.topUps.created'),
                  cell: (p) => when(p.createdAt),
                  sort: sorted.column({ desc: 'newest', asc: 'oldest' }),
                },
                { header: t('console.topUps.settled'), cell: (p) => when(p.settledAt ?? p.processedAt) },
                ...(kind === 'intents' && can('adminVerifyTopup')
                  ? [
                      {
                        header: t('console.topUps.actions'),
                        cell: (p: (typeof data.items)[number]) =>
                          p.status === 'success' || !p.reference ? null : <VerifyButton reference={p.reference} onDone={setNotice} />,
                      },
                    ]
                  : []),
                ...(kind === 'settlements' && can('adminCorrectSettlement')
                  ? [
                      {
                        header: t('console.topUps.actions'),
                        cell: (p: (typeof data.items)[number]) => (
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() => setCorrecting(p)}
                            aria-label={t('console.topUps.correctLabel', { reference: p.reference ?? p.id })}
                          >
                            {t('console.topUps.correct')}
                          </Button>
                        ),
                      },
                    ]
                  : []),
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
      <ReasonDialog
        opened={correcting !== null}
        title={t('console.topUps.correctTitle', { reference: correcting?.reference ?? '' })}
        confirm={t('console.topUps.requestCorrection')}
        onClose={() => setCorrecting(null)}
        onConfirm={correct}
        fields={{
          schema: settlementCorrectionSchema,
          initial: { amount: '' as number | '' },
          hints: CORRECTION_HINTS,
          render: (input) => <NumberInput label={t('console.topUps.correctionAmount')} decimalScale={2} required {...input('amount')} />,
        }}
      />
      {stepUp.modal}
    </Stack>
  );
}

/**
 * One top-up asked of the processor now (a lost webhook): a paid one is credited once, and says so; the list shows
 * its new status at once (every console read is asked again after a write, fresh.ts).
 */
function VerifyButton({ reference, onDone }: { reference: string; onDone: (notice: string) => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function verify() {
    setBusy(true);
    setError(null);
    try {
      const r = await api.adminVerifyTopup({ reference }, { idempotencyKey: newIdempotencyKey() });
      const paid =
        r.amountPaid !== null && r.amountPaid !== r.amount
          ? t('console.topUps.paidPart', { paid: money(r.amountPaid), amount: money(r.amount) })
          : '';
      onDone(
        r.credited
          ? t('console.topUps.credited', { reference, paid })
          : r.status === 'success'
            ? t('console.topUps.alreadyCredited', { reference, paid })
            : t('console.topUps.notPaid', { reference, status: r.status }),
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Stack gap={4}>
      <Button
        size="xs"
        variant="default"
        loading={busy}
        onClick={() => void verify()}
        aria-label={t('console.topUps.verifyLabel', { reference })}
      >
        {t('console.topUps.verify')}
      </Button>
      <Failure error={error} />
    </Stack>
  );
}

/** Reconciliation as a job: the processor is asked about every open intent; progress shows while it runs. */
function Reconciliation() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  async function run() {
    setBusy(true);
    setError(null);
    try {
      setJobId((await api.adminStartReconciliation({})).jobId);
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'payments'] });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Stack gap="xs">
      <Group>
        <Button onClick={() => void run()} loading={busy}>
          {t('console.topUps.runReconciliation')}
        </Button>
        <Text size="sm" c="dimmed">
          {t('console.topUps.reconciliationHint')}
        </Text>
      </Group>
      <Failure error={error} />
      {jobId && <JobProgress key={jobId} jobId={jobId} label={t('console.topUps.reconciliation')} />}
    </Stack>
  );
}
