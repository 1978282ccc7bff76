import { Anchor, Badge, Button, Card, Grid, Group, Image, Kbd, List, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { adminQueries } from '../../api/queries/admin';
import { useSetSearch } from '../nav';
import { useServerSort } from '../sort';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { ReasonDialog } from '../../components/ReasonDialog';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import { when } from '../../app/format';
import * as api from '../../api/calls';

const LIMIT = 20;
type Status = 'pending' | 'approved' | 'rejected';

/**
 * The KYC queue: submissions filtered by status and tier and sorted (newest, oldest, tier) on the service, the
 * selected one beside the list with its checks, frames and documents (short-lived signed addresses), and approve /
 * reject with a reason. Keys: j / k move through the list, a approves, r rejects (each asks for the reason first).
 */
export function KycQueue() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/kyc' });
  const setSearch = useSetSearch('/console/kyc');
  const status = (search.status ?? 'pending') as Status;
  const tier = search.tier ?? '';
  const offset = search.offset ?? 0;
  const { sort, column } = useServerSort('/console/kyc', ['newest', 'oldest', 'tier'] as const);
  const list = useQuery(adminQueries.kycList({ status, ...(tier ? { tier: Number(tier) } : {}), sort, limit: LIMIT, offset }));
  const items = list.data?.items ?? [];
  const selected = (search.id ?? '') || items[0]?.id || '';
  const [decision, setDecision] = useState<'approve' | 'reject' | null>(null);
  const qc = useQueryClient();

  const move = (step: number) => {
    const i = items.findIndex((s) => s.id === selected);
    const next = items[Math.min(items.length - 1, Math.max(0, i + step))];
    if (next) setSearch({ id: next.id, offset });
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || decision) return;
      const target = e.target as HTMLElement;
      if (target.closest('input, textarea, select, [contenteditable="true"], [role="dialog"]')) return;
      if (e.key === 'j') move(1);
      else if (e.key === 'k') move(-1);
      else if (e.key === 'a' && selected && status === 'pending') setDecision('approve');
      else if (e.key === 'r' && selected && status === 'pending') setDecision('reject');
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  async function decide(reason: string | undefined) {
    if (!decision) return;
    const i = items.findIndex((s) => s.id === selected);
    await api.adminReviewKyc({ submissionId: selected, decision, ...(reason ? { reason } : {}) });
    // On to the next submission in the queue (the decided one leaves the pending list).
    const next = items[i + 1] ?? items[i - 1];
    setSearch({ id: next && next.id !== selected ? next.id : undefined, offset });
    await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'kyc'] });
  }

  return (
    <Stack>
      <ScreenTitle title={t('console.kycQueue.title')}>
        <Text size="sm" c="dimmed">
          {t('console.kycQueue.keys')} <Kbd>j</Kbd> <Kbd>k</Kbd> {t('console.kycQueue.keysMove')} <Kbd>a</Kbd>{' '}
          {t('console.kycQueue.keysApprove')} <Kbd>r</Kbd> {t('console.kycQueue.keysReject')}
        </Text>
      </ScreenTitle>
      <Group align="end">
        <Select
          label={t('console.kycQueue.status')}
          data={(['pending', 'approved', 'rejected'] as const).map((s) => ({ value: s, label: t(`console.kycQueue.statuses.${s}`) }))}
          value={status}
          onChange={(v) => setSearch({ status: v ?? undefined, id: undefined })}
          allowDeselect={false}
          w={160}
        />
        <Select
          label={t('console.kycQueue.tier')}
          data={[
            { value: '', label: t('console.kycQueue.tiers.all') },
            { value: '1', label: t('console.kycQueue.tiers.1') },
            { value: '2', label: t('console.kycQueue.tiers.2') },
            { value: '3', label: t('console.kycQueue.tiers.3') },
          ]}
          value={tier}
          onChange={(v) => setSearch({ tier: v || undefined, id: undefined })}
          allowDeselect={false}
          w={200}
        />
      </Group>
      <Grid>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Loaded query={list}>
            {(data) => (
              <Stack>
                <DataTable
                  caption={t(`console.kycQueue.caption.${status}`)}
                  rows={data.items}
                  rowKey={(s) => s.id}
                  selected={selected}
                  empty={t('console.kycQueue.empty')}
                  columns={[
                    {
                      header: t('console.kycQueue.customer'),
                      cell: (s) => (
                        <Anchor component="button" type="button" onClick={() => setSearch({ id: s.id, offset })}>
                          {s.email}
                        </Anchor>
                      ),
                    },
                    { header: t('console.kycQueue.tier'), cell: (s) => s.tier, sort: column({ asc: 'tier' }) },
                    {
                      header: t('console.kycQueue.submitted'),
                      cell: (s) => when(s.createdAt),
                      sort: column({ desc: 'newest', asc: 'oldest' }),
                    },
                    { header: t('console.kycQueue.status'), cell: (s) => <StatusBadge status={s.status} /> },
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
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          {selected ? <Submission id={selected} onDecide={setDecision} /> : <Text c="dimmed">{t('console.kycQueue.choose')}</Text>}
        </Grid.Col>
      </Grid>
      <ReasonDialog
        opened={decision !== null}
        title={t(decision === 'approve' ? 'console.kycQueue.approveTitle' : 'console.kycQueue.rejectTitle')}
        label={t(decision === 'approve' ? 'console.kycQueue.note' : 'console.kycQueue.reason')}
        optional={decision === 'approve'}
        confirm={t(decision === 'approve' ? 'console.kycQueue.approve' : 'console.kycQueue.reject')}
        color={decision === 'approve' ? undefined : 'red'}
        onClose={() => setDecision(null)}
        onConfirm={decide}
      />
    </Stack>
  );
}

const yesNo = (t: TFunction, v: boolean | undefined) => (v === undefined ? '—' : t(v ? 'console.kycQueue.yes' : 'console.kycQueue.no'));

function Submission({ id, onDecide }: { id: string; onDecide: (d: 'approve' | 'reject') => void }) {
  const { t } = useTranslation();
  const q = useQuery(adminQueries.kyc(id));
  return (
    <Loaded query={q}>
      {({ submission: s }) => {
        const d = s.details;
        const images = s.files.filter((f) => f.contentType.startsWith('image/'));
        const documents = s.files.filter((f) => !f.contentType.startsWith('image/'));
        return (
          <Card withBorder component="section" aria-labelledby="kyc-detail">
            <Stack>
              <Group justify="space-between">
                <Title order={2} size="h4" id="kyc-detail">
                  {t('console.kycQueue.heading', { email: s.email, tier: s.tier })}
                </Title>
                <StatusBadge status={s.status} />
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                <Text size="sm">{t('console.kycQueue.profileName', { name: s.profileName ?? '—' })}</Text>
                <Text size="sm">{t('console.kycQueue.verifiedName', { name: s.verifiedName ?? '—' })}</Text>
                <Text size="sm">
                  {t('console.kycQueue.phone', { phone: s.phone ?? '—' })}{' '}
                  {s.phoneVerified && <Badge size="xs">{t('console.kycQueue.verified')}</Badge>}
                </Text>
                <Text size="sm">{t('console.kycQueue.submittedAt', { when: when(s.createdAt) })}</Text>
                {d.liveness && (
                  <Text size="sm">
                    {t('console.kycQueue.liveness', { outcome: d.liveness.outcome })}
                    {d.liveness.score !== undefined && t('console.kycQueue.score', { score: d.liveness.score })}
                    {d.liveness.reason && `, ${d.liveness.reason.replace(/_/g, ' ')}`}
                    {d.liveness.review && t('console.kycQueue.review', { review: d.liveness.review.replace(/_/g, ' ') })}
                  </Text>
                )}
                {d.nameMatched !== undefined && (
                  <Text size="sm">{t('console.kycQueue.nameMatched', { answer: yesNo(t, d.nameMatched) })}</Text>
                )}
                {d.phoneMatched !== undefined && (
                  <Text size="sm">{t('console.kycQueue.phoneMatched', { answer: yesNo(t, d.phoneMatched) })}</Text>
                )}
                {d.ninMasked && <Text size="sm">{t('console.kycQueue.nin', { nin: d.ninMasked })}</Text>}
                {d.bankName && (
                  <Text size="sm">{t('console.kycQueue.bank', { bank: d.bankName, account: d.accountNumberMasked ?? '' })}</Text>
                )}
                {d.documentType && <Text size="sm">{t('console.kycQueue.document', { document: d.documentType.replace(/_/g, ' ') })}</Text>}
                {s.reason && <Text size="sm">{t('console.kycQueue.reasonIs', { reason: s.reason })}</Text>}
                {s.reviewedAt && <Text size="sm">{t('console.kycQueue.reviewed', { when: when(s.reviewedAt) })}</Text>}
              </SimpleGrid>
              {d.failedChecks && d.failedChecks.length > 0 && (
                <List size="sm" aria-label={t('console.kycQueue.failedChecks')}>
                  {d.failedChecks.map((c) => (
                    <List.Item key={c}>{c.replace(/_/g, ' ')}</List.Item>
                  ))}
                </List>
              )}
              {images.length > 0 && (
                <SimpleGrid cols={{ base: 2, sm: 3 }}>
                  {images.map((f, i) => (
                    <a key={f.path} href={f.url} target="_blank" rel="noreferrer">
                      <Image src={f.url} alt={`${f.role.replace(/_/g, ' ')} ${i + 1}`} radius="sm" fit="contain" h={160} />
                    </a>
                  ))}
                </SimpleGrid>
              )}
              {documents.map((f) => (
                <Anchor key={f.path} href={f.url} target="_blank" rel="noreferrer">
                  {t('console.kycQueue.open', {
                    role: f.role.replace(/_/g, ' '),
                    type: f.contentType,
                    size: Math.ceil(f.sizeBytes / 1024),
                  })}
                </Anchor>
              ))}
              {s.files.length > 0 && (
                <Text size="xs" c="dimmed">
                  {t('console.kycQueue.expire', { when: when(s.files[0]!.expiresAt) })}
                </Text>
              )}
              {s.status === 'pending' && (
                <Group>
                  <Button onClick={() => onDecide('approve')}>{t('console.kycQueue.approve')}</Button>
                  <Button color="red" variant="light" onClick={() => onDecide('reject')}>
                    {t('console.kycQueue.reject')}
                  </Button>
                </Group>
              )}
            </Stack>
          </Card>
        );
      }}
    </Loaded>
  );
}
