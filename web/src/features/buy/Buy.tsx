import { Alert, Anchor, SegmentedControl, Stack, Switch, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { settingsQueries } from '../../api/queries/settings';
import { BUY_SERVICES, type BuyService } from '../../app/buy-services';
import { AirtimeCashSell } from './AirtimeCash';
import { BettingBuy, CableBuy, ElectricityBuy, ExamBuy } from './Bills';
import { BulkBuy } from './BulkBuy';
import { EsimBuy } from './Esim';
import { FlightsBuy } from './Flights';
import { PhoneBuy } from './PhoneBuy';
import { SocialBuy } from './Social';

/** Airtime and data: number, detected network (override for ported numbers), price quoted, PIN, live result. */
export function Buy() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/app/buy' });
  const navigate = useNavigate();
  const service = search.service ?? 'airtime';
  const [bulk, setBulk] = useState(false);
  const hasPin = useQuery(settingsQueries.hasPin());
  return (
    <Stack maw={520}>
      <Title order={1}>{t('buy.title')}</Title>
      <SegmentedControl
        aria-label={t('buy.title')}
        value={service}
        onChange={(v) => void navigate({ to: '/buy', search: { service: v as BuyService } })}
        data={BUY_SERVICES.map((s) => ({ value: s, label: t(`buy.${s}`) }))}
        fullWidth
        orientation="horizontal"
        style={{ flexWrap: 'wrap' }}
      />
      {hasPin.data && !hasPin.data.hasPin && (
        <Alert color="yellow">
          {t('buy.needsPin')}{' '}
          <Anchor component={Link} to="/settings">
            {t('buy.setPin')}
          </Anchor>
        </Alert>
      )}
      {service === 'airtime' && <Switch label={t('buy.several')} checked={bulk} onChange={(e) => setBulk(e.currentTarget.checked)} />}
      {service === 'cable' && <CableBuy />}
      {service === 'electricity' && <ElectricityBuy />}
      {service === 'betting' && <BettingBuy />}
      {service === 'exam' && <ExamBuy />}
      {service === 'airtimeCash' && <AirtimeCashSell />}
      {service === 'esim' && <EsimBuy />}
      {service === 'social' && <SocialBuy />}
      {service === 'flights' && <FlightsBuy />}
      {(service === 'airtime' || service === 'data') &&
        (service === 'airtime' && bulk ? <BulkBuy /> : <PhoneBuy key={service} service={service} />)}
    </Stack>
  );
}
