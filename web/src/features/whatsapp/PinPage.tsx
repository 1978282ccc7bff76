import { Alert, Container, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { whatsappQueries } from '../../api/queries/whatsapp';
import { isCode } from '../../app/errors';
import { formatDateTime, formatNaira } from '../../app/format';
import { refusalMessage } from '../../app/pin-errors';
import { PinPad } from '../../components/PinPad';
import * as api from '../../api/calls';
import { Loading } from '../../components/Loaded';

/**
 * The PIN page of a WhatsApp chat's link (issue 46): no sign-in, the link's one-time token is the credential. It
 * shows what the chat asked for and takes the transaction PIN, which is never typed into the chat; the result and
 * receipt arrive in the chat. A wrong PIN says how many tries are left, with the app's tries and lock.
 */
export function WhatsappPinPage() {
  const { token } = useParams({ from: '/whatsapp/pin/$token' });
  return <PinRequest token={token} />;
}

export function PinRequest({ token }: { token: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const request = useQuery(whatsappQueries.pinRequest(token));
  const [pin, setPin] = useState('');
  const [tries, setTries] = useState(0);
  const confirm = useMutation({
    mutationFn: (p: string) => api.confirmWhatsappPin({ token, pin: p }),
    onError: (err) => {
      setPin('');
      setTries((n) => n + 1);
      // Used or expired meanwhile: the page shows the request's state as it is now.
      if (isCode(err, 'CONFLICT') || isCode(err, 'NOT_FOUND'))
        void qc.invalidateQueries({ queryKey: whatsappQueries.pinRequest(token).queryKey });
    },
  });
  const r = request.data;
  const unknown = isCode(request.error, 'NOT_FOUND') || isCode(request.error, 'VALIDATION_FAILED');
  return (
    <Container component="main" size="xs" py="md">
      <Stack>
        <Title order={1}>{t('whatsapp.pinTitle')}</Title>
        {request.isPending && <Loading />}
        {request.error && (
          <Alert color="red" role="alert">
            {unknown ? t('whatsapp.notFound') : refusalMessage(request.error)}
          </Alert>
        )}
        {confirm.isSuccess ? (
          <Alert color="green" role="status" title={confirm.data.result}>
            {t('whatsapp.done')}
          </Alert>
        ) : (
          r && (
            <>
              <Text fw={600}>{r.summary}</Text>
              {r.amountKobo > 0 && <Text>{t('whatsapp.total', { amount: formatNaira(r.amountKobo / 100) })}</Text>}
              {r.state === 'done' && (
                <Alert color="green" role="status">
                  {t('whatsapp.alreadyDone')}
                </Alert>
              )}
              {r.state === 'expired' && (
                <Alert color="red" role="alert">
                  {t('whatsapp.expired')}
                </Alert>
              )}
              {r.state === 'waiting' && (
                <>
                  <Text size="sm">{t('whatsapp.pinIntro')}</Text>
                  <Text size="sm" c="dimmed">
                    {t('whatsapp.until', { time: formatDateTime(r.expiresAt) })}
                  </Text>
                  {confirm.error && (
                    <Alert color="red" role="alert">
                      {refusalMessage(confirm.error)}
                    </Alert>
                  )}
                  <PinPad value={pin} onChange={setPin} onConfirm={(p) => confirm.mutate(p)} busy={confirm.isPending} focus={tries} />
                </>
              )}
            </>
          )
        )}
      </Stack>
    </Container>
  );
}
