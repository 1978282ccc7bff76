import { Alert, Badge, Button, Card, Group, Modal, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { type GetOutput } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import * as ops from '../../api/operations';
import * as api from '../../api/calls';
import { when } from '../../app/format';
import { Failure } from '../../components/Failure';
import { Loaded } from '../../components/Loaded';
import { ScreenTitle } from '../../components/ScreenTitle';
import { useCan } from '../roles';
import { useOperatorStepUp } from '../step-up';

type ServiceRouting = GetOutput<typeof ops.adminGetRouting>['items'][number];
type Route = ServiceRouting['routes'][number];
type Draft = { service: ServiceRouting; route: Route };

const routingQuery = () => ({ queryKey: [...adminQueries.all(), 'routing'], queryFn: () => api.adminGetRouting() });
const NETWORK_NAMES: Record<string, string> = { mtn: 'MTN', airtel: 'Airtel', glo: 'Glo', '9mobile': '9mobile' };
const where = (t: TFunction, r: Route) => (r.network ? (NETWORK_NAMES[r.network] ?? r.network) : t('console.routing.wholeService'));
const order = (providers: { name: string }[]) => providers.map((p) => p.name).join(' → ');
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Where an order comes from, in words: an operator's row here, the service's row, VTU_ROUTING, or the default. */
function SourceBadge({ route }: { route: Route }) {
  const { t } = useTranslation();
  if (route.source === 'console')
    return (
      <Badge color="blue" variant="light">
        {t(route.own ? 'console.routing.setHere' : 'console.routing.serviceOrder')}
      </Badge>
    );
  return (
    <Badge color="gray" variant="light">
      {t(route.source === 'configuration' ? 'console.routing.configuration' : 'console.routing.default')}
    </Badge>
  );
}

/**
 * Provider routing (issue 45): per service, and per network for airtime and data, the providers in the order they are
 * tried, by their names. An admin changes an order (reviewed before it is set, with step-up) or clears it; the order
 * set here wins over the configuration's (VTU_ROUTING) and the service's default.
 */
export function Routing() {
  const { t } = useTranslation();
  const can = useCan();
  const admin = can('adminSetRouting');
  const routing = useQuery(routingQuery());
  const qc = useQueryClient();
  const stepUp = useOperatorStepUp();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function write(fn: (grantToken?: string) => Promise<unknown>) {
    setError(null);
    try {
      await stepUp.withGrant(fn);
      setDraft(null);
      await qc.invalidateQueries({ queryKey: routingQuery().queryKey });
    } catch (err) {
      setError(err);
    }
  }
  const grant = (grantToken?: string) => (grantToken ? { grantToken } : {});
  const set = (d: Draft, providers: string[]) =>
    write((g) =>
      api.adminSetRouting({ service: d.service.service, ...(d.route.network ? { network: d.route.network } : {}), providers }, grant(g)),
    );
  const clear = (s: ServiceRouting, r: Route) =>
    write((g) => api.adminClearRouting({ service: s.service, ...(r.network ? { network: r.network } : {}) }, grant(g)));

  return (
    <Stack>
      <ScreenTitle title={t('console.routing.title')} />
      <Text size="sm" c="dimmed">
        {t('console.routing.intro')}
      </Text>
      {!draft && <Failure error={error} />}
      <Loaded query={routing}>
        {(data) =>
          data.items.map((s) => (
            <Card key={s.service} withBorder component="section" aria-labelledby={`routing-${s.service}`}>
              <Title order={2} size="h4" id={`routing-${s.service}`} mb="xs">
                {capital(s.label)}
              </Title>
              <Table>
                <Table.Caption>{t('console.routing.caption', { service: capital(s.label), providers: order(s.providers) })}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('console.routing.where')}</Table.Th>
                    <Table.Th scope="col">{t('console.routing.inOrder')}</Table.Th>
                    <Table.Th scope="col">{t('console.routing.source')}</Table.Th>
                    {admin && <Table.Th scope="col">{t('console.routing.change')}</Table.Th>}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {s.routes.map((r) => (
                    <Table.Tr key={r.network ?? ''}>
                      <Table.Th scope="row">{where(t, r)}</Table.Th>
                      <Table.Td>{order(r.providers)}</Table.Td>
                      <Table.Td>
                        <SourceBadge route={r} />
                        {r.own && r.setAt && (
                          <Text size="xs" c="dimmed">
                            {when(r.setAt)}
                          </Text>
                        )}
                      </Table.Td>
                      {admin && (
                        <Table.Td>
                          <Group gap="xs">
                            <Button size="xs" variant="default" onClick={() => setDraft({ service: s, route: r })}>
                              {t('console.routing.changeOne', { service: s.label, where: where(t, r) })}
                            </Button>
                            {r.own && (
                              <Button size="xs" variant="subtle" color="red" onClick={() => void clear(s, r)}>
                                {t('console.routing.clearOne', { service: s.label, where: where(t, r) })}
                              </Button>
                            )}
                          </Group>
                        </Table.Td>
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Card>
          ))
        }
      </Loaded>
      <RouteDialog draft={draft} error={error} onCancel={() => setDraft(null)} onConfirm={(d, p) => void set(d, p)} />
      {stepUp.modal}
    </Stack>
  );
}

/** The order's change: a provider per place (the later ones optional), then the before and after to confirm. */
function RouteDialog(p: { draft: Draft | null; error: unknown; onCancel: () => void; onConfirm: (d: Draft, providers: string[]) => void }) {
  const { t } = useTranslation();
  const d = p.draft;
  return (
    <Modal
      opened={d !== null}
      onClose={p.onCancel}
      title={d ? t('console.routing.dialog', { service: d.service.label, where: where(t, d.route) }) : ''}
      closeButtonProps={{ 'aria-label': t('console.routing.close') }}
    >
      {d && (
        <RouteForm
          key={`${d.service.service}-${d.route.network}`}
          draft={d}
          error={p.error}
          onCancel={p.onCancel}
          onConfirm={p.onConfirm}
        />
      )}
    </Modal>
  );
}

/** The places of an order (the service's adapters are at most four, providers A to D). */
const PLACES = ['0', '1', '2', '3'] as const;

function RouteForm(p: { draft: Draft; error: unknown; onCancel: () => void; onConfirm: (d: Draft, providers: string[]) => void }) {
  const { t } = useTranslation();
  const { service, route } = p.draft;
  const [picks, setPicks] = useState<(string | null)[]>(() => service.providers.map((_, i) => route.providers[i]?.id ?? null));
  const [review, setReview] = useState(false);
  const chosen = picks.filter((x): x is string => Boolean(x));
  const nameOf = (id: string) => service.providers.find((x) => x.id === id)?.name ?? id;
  const twice = chosen.some((x, i) => chosen.indexOf(x) !== i);
  if (review)
    return (
      <Stack>
        <Text size="sm" role="status">
          {t('console.routing.review', { before: order(route.providers), after: chosen.map(nameOf).join(' → ') })}
        </Text>
        <Failure error={p.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setReview(false)}>
            {t('console.routing.back')}
          </Button>
          <Button onClick={() => p.onConfirm(p.draft, chosen)}>{t('console.routing.set')}</Button>
        </Group>
      </Stack>
    );
  return (
    <Stack>
      {service.providers.map((_, i) => (
        <Select
          key={i}
          label={t(`console.routing.places.${PLACES[i]!}`)}
          data={service.providers.map((x) => ({ value: x.id, label: x.name }))}
          value={picks[i]}
          onChange={(v) => setPicks((old) => old.map((x, j) => (j === i ? v : x)))}
          clearable={i > 0}
          allowDeselect={i > 0}
        />
      ))}
      {twice && (
        <Alert color="red" role="alert">
          {t('console.routing.twice')}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={p.onCancel}>
          {t('console.routing.cancel')}
        </Button>
        <Button disabled={!chosen.length || twice || !picks[0]} onClick={() => setReview(true)}>
          {t('console.routing.reviewButton')}
        </Button>
      </Group>
    </Stack>
  );
}
