import { Anchor, Badge, Button, Card, Grid, Group, Image, Kbd, List, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { post } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { useScreenSearch } from '../nav';
import { useServerSort } from '../sort';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { ReasonDialog } from '../../components/ReasonDialog';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import { when } from '../../app/format';
import * as ops from '../../api/operations';

const LIMIT = 20;
type Status = 'pending' | 'approved' | 'rejected';

/**
 * The KYC queue: submissions filtered by status and tier and sorted (newest, oldest, tier) on the service, the
 * selected one beside the list with its checks, frames and documents (short-lived signed addresses), and approve /
 * reject with a reason. Keys: j / k move through the list, a approves, r rejects (each asks for the reason first).
 */
export function KycQueue() {
  const search = useScreenSearch();
  const status = (search.text('status') || 'pending') as Status;
  const tier = search.text('tier');
  const offset = search.num('offset', 0);
  const { sort, column } = useServerSort(['newest', 'oldest', 'tier'] as const);
  const list = useQuery(adminQueries.kycList({ status, ...(tier ? { tier: Number(tier) } : {}), sort, limit: LIMIT, offset }));
  const items = list.data?.items ?? [];
  const selected = search.text('id') || items[0]?.id || '';
  const [decision, setDecision] = useState<'approve' | 'reject' | null>(null);
  const qc = useQueryClient();

  const move = (step: number) => {
    const i = items.findIndex((s) => s.id === selected);
    const next = items[Math.min(items.length - 1, Math.max(0, i + step))];
    if (next) search.set({ id: next.id, offset });
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
    await post(ops.adminReviewKyc, { submissionId: selected, decision, ...(reason ? { reason } : {}) });
    // On to the next submission in the queue (the decided one leaves the pending list).
    const next = items[i + 1] ?? items[i - 1];
    search.set({ id: next && next.id !== selected ? next.id : undefined, offset });
    await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'kyc'] });
  }

  return (
    <Stack>
      <ScreenTitle title="KYC queue">
        <Text size="sm" c="dimmed">
          Keys: <Kbd>j</Kbd> <Kbd>k</Kbd> move, <Kbd>a</Kbd> approve, <Kbd>r</Kbd> reject
        </Text>
      </ScreenTitle>
      <Group align="end">
        <Select
          label="Status"
          data={['pending', 'approved', 'rejected']}
          value={status}
          onChange={(v) => search.set({ status: v ?? undefined, id: undefined })}
          allowDeselect={false}
          w={160}
        />
        <Select
          label="Tier"
          data={[
            { value: '', label: 'All tiers' },
            { value: '1', label: 'Tier 1 (face)' },
            { value: '2', label: 'Tier 2 (NIN)' },
            { value: '3', label: 'Tier 3 (bank and ID)' },
          ]}
          value={tier}
          onChange={(v) => search.set({ tier: v || undefined, id: undefined })}
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
                  caption={`${status} submissions`}
                  rows={data.items}
                  rowKey={(s) => s.id}
                  selected={selected}
                  empty="No submissions with these filters."
                  columns={[
                    {
                      header: 'Customer',
                      cell: (s) => (
                        <Anchor component="button" type="button" onClick={() => search.set({ id: s.id, offset })}>
                          {s.email}
                        </Anchor>
                      ),
                    },
                    { header: 'Tier', cell: (s) => s.tier, sort: column({ asc: 'tier' }) },
                    { header: 'Submitted', cell: (s) => when(s.createdAt), sort: column({ desc: 'newest', asc: 'oldest' }) },
                    { header: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
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
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          {selected ? <Submission id={selected} onDecide={setDecision} /> : <Text c="dimmed">Choose a submission.</Text>}
        </Grid.Col>
      </Grid>
      <ReasonDialog
        opened={decision !== null}
        title={decision === 'approve' ? 'Approve this submission' : 'Reject this submission'}
        label={decision === 'approve' ? 'Note (optional)' : 'Reason (the customer sees it)'}
        optional={decision === 'approve'}
        confirm={decision === 'approve' ? 'Approve' : 'Reject'}
        color={decision === 'approve' ? undefined : 'red'}
        onClose={() => setDecision(null)}
        onConfirm={decide}
      />
    </Stack>
  );
}

const yesNo = (v: boolean | undefined) => (v === undefined ? '—' : v ? 'yes' : 'no');

function Submission({ id, onDecide }: { id: string; onDecide: (d: 'approve' | 'reject') => void }) {
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
                  {s.email}, tier {s.tier}
                </Title>
                <StatusBadge status={s.status} />
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                <Text size="sm">Name on profile: {s.profileName ?? '—'}</Text>
                <Text size="sm">Verified name: {s.verifiedName ?? '—'}</Text>
                <Text size="sm">
                  Phone: {s.phone ?? '—'} {s.phoneVerified && <Badge size="xs">verified</Badge>}
                </Text>
                <Text size="sm">Submitted: {when(s.createdAt)}</Text>
                {d.liveness && (
                  <Text size="sm">
                    Liveness: {d.liveness.outcome}
                    {d.liveness.score !== undefined && `, score ${d.liveness.score}`}
                    {d.liveness.reason && `, ${d.liveness.reason.replace(/_/g, ' ')}`}
                    {d.liveness.review && ` (review: ${d.liveness.review.replace(/_/g, ' ')})`}
                  </Text>
                )}
                {d.nameMatched !== undefined && <Text size="sm">Name matched: {yesNo(d.nameMatched)}</Text>}
                {d.phoneMatched !== undefined && <Text size="sm">Phone matched: {yesNo(d.phoneMatched)}</Text>}
                {d.ninMasked && <Text size="sm">NIN: {d.ninMasked}</Text>}
                {d.bankName && (
                  <Text size="sm">
                    Bank: {d.bankName} {d.accountNumberMasked}
                  </Text>
                )}
                {d.documentType && <Text size="sm">Document: {d.documentType.replace(/_/g, ' ')}</Text>}
                {s.reason && <Text size="sm">Reason: {s.reason}</Text>}
                {s.reviewedAt && <Text size="sm">Reviewed: {when(s.reviewedAt)}</Text>}
              </SimpleGrid>
              {d.failedChecks && d.failedChecks.length > 0 && (
                <List size="sm" aria-label="Failed checks">
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
                  Open {f.role.replace(/_/g, ' ')} ({f.contentType}, {Math.ceil(f.sizeBytes / 1024)} KB)
                </Anchor>
              ))}
              {s.files.length > 0 && (
                <Text size="xs" c="dimmed">
                  File links expire at {when(s.files[0]!.expiresAt)}; the screen asks for new ones when it reloads.
                </Text>
              )}
              {s.status === 'pending' && (
                <Group>
                  <Button onClick={() => onDecide('approve')}>Approve</Button>
                  <Button color="red" variant="light" onClick={() => onDecide('reject')}>
                    Reject
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
