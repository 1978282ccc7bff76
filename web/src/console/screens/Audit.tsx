import { Anchor, Button, Code, Group, Select, Spoiler, Stack, Text, TextInput } from '@mantine/core';
import { Fragment } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { operatorQueries } from '../../api/queries/admin';
import { ConsoleLink, useSetSearch } from '../nav';
import { LinkedText } from '../references';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import { when } from '../../app/format';

const LIMIT = 50;
/** A Lagos calendar day's start (or, with `end`, the next day's start) as the instant the service asks for. */
const lagos = (day: string, end = false) => {
  if (!day) return undefined;
  const d = new Date(`${day}T00:00:00+01:00`);
  if (end) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
};
const json = (v: unknown) =>
  v === null || v === undefined || (typeof v === 'object' && Object.keys(v).length === 0) ? '' : JSON.stringify(v);

/**
 * The audit trail the registry writes (one row per operator call): by operator, operation, target and Lagos days,
 * newest first, paged by the service's cursor.
 */
export function Audit() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/audit' });
  const setSearch = useSetSearch('/console/audit');
  const operatorId = search.operator ?? '';
  const operation = search.operation ?? '';
  const targetId = search.target ?? '';
  const words = search.words ?? '';
  const from = search.from ?? '';
  const to = search.to ?? '';
  const cursor = search.cursor ?? '';
  const [draft, setDraft] = useState({ operation, targetId, words });
  const [previous, setPrevious] = useState<string[]>([]);
  const operators = useQuery(operatorQueries.operators());
  const q = useQuery(
    operatorQueries.audit({
      limit: LIMIT,
      ...(operatorId ? { operatorId } : {}),
      ...(operation ? { operation } : {}),
      ...(targetId ? { targetId } : {}),
      ...(words ? { words } : {}),
      ...(from ? { from: lagos(from) } : {}),
      ...(to ? { to: lagos(to, true) } : {}),
      ...(cursor ? { cursor } : {}),
    }),
  );
  const filter = (patch: Record<string, string | undefined>) => {
    setPrevious([]);
    setSearch({ ...patch, cursor: undefined });
  };
  return (
    <Stack>
      <ScreenTitle title={t('console.audit.title')} />
      <form
        noValidate
        aria-label={t('console.audit.search')}
        onSubmit={(e) => {
          e.preventDefault();
          filter({
            operation: draft.operation.trim() || undefined,
            target: draft.targetId.trim() || undefined,
            words: draft.words.trim() || undefined,
          });
        }}
      >
        <Group align="end">
          <Select
            label={t('console.audit.operator')}
            data={[
              { value: '', label: t('console.audit.anyone') },
              ...(operators.data?.items ?? []).map((o) => ({ value: o.userId, label: o.email })),
            ]}
            value={operatorId}
            onChange={(v) => filter({ operator: v || undefined })}
            allowDeselect={false}
            w={240}
          />
          <TextInput
            label={t('console.audit.words')}
            placeholder={t('console.audit.wordsExample')}
            value={draft.words}
            onChange={(e) => setDraft({ ...draft, words: e.currentTarget.value })}
          />
          <TextInput
            label={t('console.audit.operation')}
            placeholder="adminFreezeCustomer"
            value={draft.operation}
            onChange={(e) => setDraft({ ...draft, operation: e.currentTarget.value })}
          />
          <TextInput
            label={t('console.audit.target')}
            value={draft.targetId}
            onChange={(e) => setDraft({ ...draft, targetId: e.currentTarget.value })}
          />
          <TextInput
            type="date"
            label={t('console.audit.from')}
            value={from}
            onChange={(e) => filter({ from: e.currentTarget.value || undefined })}
          />
          <TextInput
            type="date"
            label={t('console.audit.to')}
            value={to}
            onChange={(e) => filter({ to: e.currentTarget.value || undefined })}
          />
          <Button type="submit">{t('console.audit.searchButton')}</Button>
        </Group>
      </form>
      <Loaded query={q}>
        {(data) => (
          <Stack>
            <DataTable
              caption={t('console.audit.caption')}
              rows={data.items}
              rowKey={(r) => r.id}
              empty={t('console.audit.empty')}
              columns={[
                { header: t('console.audit.when'), cell: (r) => when(r.at) },
                {
                  header: t('console.audit.operator'),
                  cell: (r) => `${r.operatorEmail ?? '—'}${r.roles.length ? ` (${r.roles.join(', ')})` : ''}`,
                },
                { header: t('console.audit.operation'), cell: (r) => r.operation },
                {
                  header: t('console.audit.outcome'),
                  cell: (r) => <StatusBadge status={r.outcome === 'ok' ? 'success' : (r.outcome ?? 'recorded')} />,
                },
                {
                  header: t('console.audit.targets'),
                  cell: (r) => <Targets targets={r.targets} />,
                },
                {
                  header: t('console.audit.change'),
                  cell: (r) => (
                    <Spoiler maxHeight={40} showLabel={t('console.audit.showAll')} hideLabel={t('console.audit.hide')}>
                      {/* Wrapped, never a sideways-scrolling box: a card on a phone is narrow (axe scrollable-region-focusable). */}
                      <Code block fz="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                        {/* Purchase and top-up references in the input and the change are links. */}
                        <LinkedText
                          text={
                            [
                              json(r.input),
                              r.before || r.after ? t('console.audit.beforeAfter', { before: json(r.before), after: json(r.after) }) : '',
                              json(r.details),
                            ]
                              .filter(Boolean)
                              .join('\n') || '—'
                          }
                        />
                      </Code>
                    </Spoiler>
                  ),
                },
                {
                  header: t('console.audit.request'),
                  cell: (r) => (
                    <Text size="xs">
                      {r.requestId && r.ip
                        ? t('console.audit.requestFrom', { request: r.requestId, ip: r.ip })
                        : r.requestId || r.ip || '—'}
                    </Text>
                  ),
                },
              ]}
            />
            <Group justify="flex-end" component="nav" aria-label={t('console.audit.pages')}>
              <Button
                variant="default"
                size="xs"
                disabled={previous.length === 0}
                onClick={() => {
                  const back = previous.slice(0, -1);
                  setPrevious(back);
                  setSearch({ cursor: previous.at(-1) || undefined });
                }}
              >
                {t('console.audit.newer')}
              </Button>
              <Button
                variant="default"
                size="xs"
                disabled={!data.nextCursor}
                onClick={() => {
                  setPrevious([...previous, cursor]);
                  setSearch({ cursor: data.nextCursor ?? undefined });
                }}
              >
                {t('console.audit.older')}
              </Button>
            </Group>
          </Stack>
        )}
      </Loaded>
    </Stack>
  );
}

/**
 * A call's targets: a customer (`user`) links to their page, a purchase or top-up reference to its page; other ids
 * (approval requests, sessions, settings) have no page of their own and stay text.
 */
function Targets({ targets }: { targets: readonly { type?: string | null; id: string }[] }) {
  if (!targets.length) return <Text size="xs">—</Text>;
  return (
    <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
      {targets.map((x, i) => (
        <Fragment key={`${x.type}:${x.id}`}>
          {i > 0 && ', '}
          {x.type ? `${x.type} ` : ''}
          {x.type === 'user' ? (
            <Anchor component={ConsoleLink} link={{ to: '/console/customers/$userId', params: { userId: x.id } }} size="xs">
              {x.id}
            </Anchor>
          ) : (
            <LinkedText text={x.id} />
          )}
        </Fragment>
      ))}
    </Text>
  );
}
