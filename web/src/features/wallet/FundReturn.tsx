import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { peekDraft } from '../../app/draft';
import { errorMessage } from '../../app/errors';
import { formatNaira } from '../../app/format';
import { useKindLabel } from '../../app/kind-tabs';
import { LinkButton } from '../../components/LinkButton';
import { walletQueries } from '../../api/queries/wallet';
import * as api from '../../api/calls';

/**
 * Back from the processor's checkout. The redirect itself credits nothing: this screen says "confirming" and asks
 * the service until the top-up is settled (the processor's webhook or the service's own verification).
 */
/** How long the screen keeps asking before it says the payment is still pending (a failed or abandoned checkout
 * sends no webhook, so without an end the spinner would turn for ever). */
const POLL_MS = 2000;
const GIVE_UP_MS = 30_000;
/** Every few polls the service is asked to verify with the processor (which also settles failed and abandoned). */
const VERIFY_EVERY = 3;

export function FundReturn() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const reference = new URLSearchParams(window.location.search).get('reference') ?? '';
  const [funding] = useState(() => peekDraft()?.funding !== undefined && peekDraft());
  const kindLabel = useKindLabel();
  // A new round (Check again) starts the polling and its time limit afresh.
  const [round, setRound] = useState(0);
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    const id = setTimeout(() => setExpired(true), GIVE_UP_MS);
    return () => clearTimeout(id);
  }, [round]);
  const polls = useRef(0);
  const intent = useQuery({
    queryKey: [...walletQueries.topup(reference).queryKey, round],
    queryFn: () => (++polls.current % VERIFY_EVERY === 0 ? api.verifyProcessorTopup({ reference }) : api.getTopupIntent({ reference })),
    enabled: reference.length > 0,
    refetchInterval: (q) => ((q.state.data?.status === 'pending' || !q.state.data) && !expired ? POLL_MS : false),
  });
  const status = intent.data?.status;
  const waiting = (!status || status === 'pending') && !intent.error;
  const gaveUp = waiting && expired;
  const navigate = useNavigate();
  useEffect(() => {
    if (status !== 'success') return;
    // Funded for a purchase the balance was too low for: straight back to it (it opens at its review, the PIN pad in
    // view) once the new balance is read, so the review does not show the old one.
    void qc.invalidateQueries({ queryKey: walletQueries.all(), refetchType: 'all' }).then(() => {
      if (funding) void navigate({ to: '/buy', search: { service: funding.service }, replace: true });
    });
  }, [status, qc, funding, navigate]);
  const checkAgain = () => {
    polls.current = VERIFY_EVERY - 1;
    setExpired(false);
    setRound((r) => r + 1);
  };
  return (
    <Stack maw={480}>
      <Title order={1}>{t('fund.title')}</Title>
      {intent.error && (
        <Alert color="red" role="alert">
          {errorMessage(intent.error)}
        </Alert>
      )}
      {waiting && !gaveUp && (
        <Stack role="status" aria-live="polite">
          <Loader aria-hidden />
          <Text fw={600}>{t('fund.confirming')}</Text>
          <Text size="sm">{t('fund.confirmingBody')}</Text>
        </Stack>
      )}
      {gaveUp && (
        <Alert color="yellow" role="status" title={t('fund.stillPending')}>
          {t('fund.stillPendingBody')}
        </Alert>
      )}
      {status === 'success' && (
        <Alert color="green" role="status" title={t('result.success')}>
          {t('fund.success', { amount: formatNaira(intent.data!.amountPaid ?? intent.data!.amount) })}
        </Alert>
      )}
      {status === 'failed' && (
        <Alert color="red" role="alert">
          {t('fund.failedPlain')}
        </Alert>
      )}
      {status === 'abandoned' && (
        <Alert color="yellow" role="alert">
          {t('fund.abandoned')}
        </Alert>
      )}
      <Group>
        {(gaveUp || intent.error) && (
          <Button variant="light" onClick={checkAgain}>
            {t('fund.checkAgain')}
          </Button>
        )}
        {(gaveUp || status === 'failed' || status === 'abandoned') && <LinkButton to="/fund">{t('fund.tryAgain')}</LinkButton>}
        {/* Funded for a purchase the balance was too low for: back to its form, filled in as it was (app/draft.ts). */}
        {status === 'success' && funding && (
          <LinkButton to="/buy" search={{ service: funding.service }}>
            {t('fund.backToPurchase', { service: kindLabel(funding.service) })}
          </LinkButton>
        )}
        <LinkButton to="/" variant="light">
          {t('app.goHome')}
        </LinkButton>
      </Group>
    </Stack>
  );
}
