import { Alert, Badge, Button, Group, NativeSelect, NumberInput, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, newIdempotencyKey } from '../../../../api/client';
import { flightQueries, type FlightOffer, type FlightView } from './queries';
import { vtuQueries } from '../../../../api/queries/vtu';
import { walletQueries } from '../../../../api/queries/wallet';
import { FLIGHT_CABINS, flightPassengersSchema, flightSearchSchema, PASSENGER_TITLES } from './schemas';
import { errorMessage } from '../../../../app/errors';
import { formatDateTime, formatNaira } from '../../../../app/format';
import type { KindResultProps } from '../../../../app/kinds';
import { refusalMessage } from '../../../../app/pin-errors';
import { showServerIssues, useSchemaForm, type FieldHints } from '../../../../components/form';
import { PinPad } from '../../../../components/PinPad';
import { ConfirmPurchase } from '../../ConfirmPurchase';
import * as ops from '../../../../api/operations';
import * as api from '../../../../api/calls';

const HINTS: FieldHints = {
  origin: 'flights.airportRequired',
  destination: 'flights.airportRequired',
  departure_date: 'flights.dateRequired',
  email: 'flights.emailInvalid',
  phone: 'buy.phoneInvalid',
};

type Traveller = { title: string; first_name: string; last_name: string; date_of_birth: string; type: 'adult' | 'child' | 'infant' };

const travellersFor = (o: FlightOffer): Traveller[] =>
  (['adult', 'child', 'infant'] as const).flatMap((type) =>
    Array.from({ length: o.passengers[type === 'adult' ? 'adults' : type === 'child' ? 'children' : 'infants'] }, () => ({
      title: type === 'adult' ? 'mr' : 'master',
      first_name: '',
      last_name: '',
      date_of_birth: '',
      type,
    })),
  );

/**
 * Flights: a search (from, to, dates, travellers, cabin), the offers it answered with their fare rules and expiry,
 * the travellers' details and a contact, then the price, the PIN pad and the result screen with the PNR.
 */
export function Screen() {
  const [offers, setOffers] = useState<FlightOffer[] | null>(null);
  const [chosen, setChosen] = useState<FlightOffer | null>(null);
  if (chosen) return <Travellers offer={chosen} onBack={() => setChosen(null)} />;
  return (
    <Stack>
      <FlightSearch onOffers={setOffers} />
      {offers && <Offers offers={offers} onChoose={setChosen} />}
    </Stack>
  );
}

function FlightSearch({ onOffers }: { onOffers(o: FlightOffer[]): void }) {
  const { t } = useTranslation();
  const airports = useQuery(flightQueries.airports());
  const form = useSchemaForm(
    flightSearchSchema,
    {
      origin: 'LOS',
      destination: '',
      departure_date: '',
      return_date: '',
      adults: 1 as number | string,
      children: 0 as number | string,
      infants: 0 as number | string,
      cabin: 'economy',
    },
    HINTS,
  );
  const search = useMutation({
    mutationFn: (v: ReturnType<typeof flightSearchSchema.parse>) => api.searchFlights(v),
    onSuccess: (r) => onOffers(r.items),
    onError: (err) => showServerIssues(form, err, HINTS),
  });
  const places = [
    { value: '', label: '—' },
    ...(airports.data?.items ?? []).map((a) => ({ value: a.code, label: `${a.city} (${a.code})` })),
  ];
  const submit = form.onSubmit((v) => {
    const c = flightSearchSchema.safeParse({ ...v, return_date: v.return_date || undefined });
    if (c.success) search.mutate(c.data);
  });
  return (
    <form onSubmit={submit} noValidate aria-label={t('flights.search')}>
      <Stack>
        <Group grow>
          <NativeSelect label={t('flights.from')} data={places} {...form.getInputProps('origin')} required />
          <NativeSelect label={t('flights.to')} data={places} {...form.getInputProps('destination')} required />
        </Group>
        <Group grow>
          <TextInput type="date" label={t('flights.departure')} {...form.getInputProps('departure_date')} required />
          <TextInput type="date" label={t('flights.return')} description={t('flights.oneWay')} {...form.getInputProps('return_date')} />
        </Group>
        <Group grow>
          {(['adults', 'children', 'infants'] as const).map((k) => (
            <NumberInput
              key={k}
              label={t(`flights.${k}`)}
              min={k === 'adults' ? 1 : 0}
              max={9}
              allowDecimal={false}
              allowNegative={false}
              {...form.getInputProps(k)}
              onChange={(v) => form.setFieldValue(k, typeof v === 'number' ? v : '')}
            />
          ))}
        </Group>
        <NativeSelect
          label={t('flights.cabin')}
          data={FLIGHT_CABINS.map((c) => ({ value: c, label: t(`flights.cabins.${c}`) }))}
          {...form.getInputProps('cabin')}
        />
        {search.error && !(search.error instanceof ApiError && search.error.issues.length) ? (
          <Alert color="red" role="alert">
            {errorMessage(search.error)}
          </Alert>
        ) : null}
        <Button type="submit" loading={search.isPending}>
          {t('flights.searchButton')}
        </Button>
      </Stack>
    </form>
  );
}

function Offers({ offers, onChoose }: { offers: FlightOffer[]; onChoose(o: FlightOffer): void }) {
  const { t } = useTranslation();
  if (!offers.length) return <Alert color="yellow">{t('flights.noOffers')}</Alert>;
  return (
    <Stack component="section" aria-label={t('flights.offers')}>
      <Title order={2} size="h4">
        {t('flights.offers')}
      </Title>
      {offers.map((o) => (
        <Paper key={o.offer_id} withBorder p="sm" data-testid="flight-offer">
          <Stack gap={4}>
            <Group justify="space-between">
              <Text fw={600}>
                {o.airline.name} · {o.fare_name}
              </Text>
              <Text fw={700}>{formatNaira(o.price)}</Text>
            </Group>
            {o.segments.map((s) => (
              <Text key={s.flight_number + s.departs_at} size="sm">
                {s.flight_number}: {s.origin} {formatDateTime(s.departs_at)} → {s.destination} {formatDateTime(s.arrives_at)}
              </Text>
            ))}
            <Group gap="xs">
              <Badge color={o.refundable ? 'green' : 'gray'} variant="light">
                {o.refundable ? t('flights.refundable', { fee: formatNaira(o.cancellation_fee) }) : t('flights.nonRefundable')}
              </Badge>
              <Text size="xs">{t('flights.expires', { time: formatDateTime(o.expires_at) })}</Text>
            </Group>
            <Button variant="light" onClick={() => onChoose(o)}>
              {t('flights.choose')}
            </Button>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

function Travellers({ offer, onBack }: { offer: FlightOffer; onBack(): void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const form = useSchemaForm(flightPassengersSchema, { passengers: travellersFor(offer), email: '', phone: '' }, HINTS);
  const [ready, setReady] = useState<{ passengers: Traveller[]; email: string; phone: string } | null>(null);
  const values = form.getValues();
  const review = form.onSubmit((v) => {
    const c = flightPassengersSchema.safeParse(v);
    if (c.success) setReady(c.data as { passengers: Traveller[]; email: string; phone: string });
  });
  const first = offer.segments[0];
  return (
    <Stack>
      <Paper withBorder p="sm">
        <Text fw={600}>
          {offer.airline.name} · {first.origin} → {offer.segments.at(-1)!.destination}
        </Text>
        <Text size="sm">{formatDateTime(first.departs_at)}</Text>
      </Paper>
      <form onSubmit={review} noValidate aria-label={t('flights.travellers')}>
        <fieldset disabled={ready !== null} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack>
            {values.passengers.map((p, i) => (
              <Stack key={`${p.type}${i}`} gap="xs" component="fieldset" style={{ border: 0, padding: 0 }}>
                <Text component="legend" fw={600}>
                  {t('flights.traveller', { n: i + 1 })} · {t(`flights.types.${p.type}`)}
                </Text>
                <NativeSelect
                  label={t('flights.title')}
                  data={PASSENGER_TITLES.map((x) => ({ value: x, label: t(`flights.titles.${x}`) }))}
                  {...form.getInputProps(`passengers.${i}.title`)}
                />
                <TextInput label={t('flights.firstName')} {...form.getInputProps(`passengers.${i}.first_name`)} required />
                <TextInput label={t('flights.lastName')} {...form.getInputProps(`passengers.${i}.last_name`)} required />
                <TextInput type="date" label={t('flights.dateOfBirth')} {...form.getInputProps(`passengers.${i}.date_of_birth`)} required />
              </Stack>
            ))}
            <TextInput type="email" label={t('flights.email')} {...form.getInputProps('email')} required />
            <TextInput type="tel" label={t('flights.phone')} {...form.getInputProps('phone')} required />
            {!ready && (
              <Group>
                <Button variant="subtle" onClick={onBack}>
                  {t('app.back')}
                </Button>
                <Button type="submit">{t('buy.review')}</Button>
              </Group>
            )}
          </Stack>
        </fieldset>
      </form>
      {ready && (
        <ConfirmPurchase
          request={{
            service: 'flights',
            operation: ops.bookFlight,
            fields: { offer_id: offer.offer_id, ...ready },
            amount: offer.price,
          }}
          price={offer.price}
          lines={[
            [t('flights.flight'), `${offer.airline.name} ${first.flight_number}`],
            [t('flights.departure'), formatDateTime(first.departs_at)],
            [t('flights.travellers'), ready.passengers.map((p) => `${p.first_name} ${p.last_name}`).join(', ')],
            [
              t('flights.fareRules'),
              offer.refundable ? t('flights.refundable', { fee: formatNaira(offer.cancellation_fee) }) : t('flights.nonRefundable'),
            ],
            [t('buy.total'), formatNaira(offer.price)],
          ]}
          reprice={async () => (await qc.fetchQuery({ ...flightQueries.offer(offer.offer_id), staleTime: 0 })).price}
          onCancel={() => setReady(null)}
        />
      )}
    </Stack>
  );
}

/** The result screen's part for a flight: the PNR, each traveller's e-ticket, and cancellation by the fare's rules. */
export function Result({ tx }: KindResultProps) {
  return tx.flight ? <FlightResult id={tx.id} flight={tx.flight} ticketed={tx.status === 'success'} /> : null;
}

function FlightResult({ id, flight, ticketed }: { id: string; flight: FlightView; ticketed: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="flight-booking">
      <Text fw={600}>
        {flight.airline} · {flight.route} · {formatDateTime(flight.departsAt)}
      </Text>
      {flight.pnr && (
        <>
          <Text>{t('flights.pnr')}</Text>
          <Text className="token-box" fz="xl" data-testid="pnr">
            {flight.pnr}
          </Text>
        </>
      )}
      {flight.tickets && flight.tickets.length > 0 && (
        <Table layout="fixed" className="receipt-table">
          <Table.Tbody>
            {flight.tickets.map((k) => (
              <Table.Tr key={k.number}>
                <Table.Th scope="row">{k.passenger}</Table.Th>
                <Table.Td>{k.number}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {flight.cancellation ? (
        <Alert color="gray" title={t('flights.cancelled')} data-testid="flight-cancelled">
          {t('flights.cancelledBody', { refund: formatNaira(flight.cancellation.refund), fee: formatNaira(flight.cancellation.fee) })}
        </Alert>
      ) : (
        ticketed && flight.refundable && <CancelFlight id={id} />
      )}
    </Stack>
  );
}

function CancelFlight({ id }: { id: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [pin, setPin] = useState('');
  const cancel = useMutation({
    mutationFn: (p: string) => api.cancelFlightBooking({ id, pin: p }, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: vtuQueries.all() });
      void qc.invalidateQueries({ queryKey: walletQueries.all() });
    },
    onSettled: () => setPin(''),
  });
  if (!open)
    return (
      <Button variant="light" color="red" onClick={() => setOpen(true)}>
        {t('flights.cancel')}
      </Button>
    );
  return (
    <Stack component="section" aria-label={t('flights.cancel')}>
      <Text size="sm">{t('flights.cancelConfirm')}</Text>
      {cancel.error && (
        <Alert color="red" role="alert">
          {refusalMessage(cancel.error)}
        </Alert>
      )}
      <PinPad value={pin} onChange={setPin} onConfirm={(v) => cancel.mutate(v)} busy={cancel.isPending} focus />
      <Button variant="subtle" onClick={() => setOpen(false)} disabled={cancel.isPending}>
        {t('app.cancel')}
      </Button>
    </Stack>
  );
}
