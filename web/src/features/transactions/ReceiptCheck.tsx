import { Alert, Container, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../app/errors';
import { formatDateTime } from '../../app/format';
import { receiptsQueries } from '../../api/queries/vtu';
import { statusWord } from '../../app/catalogue-labels';
import { Loading } from '../../components/Loaded';
import { receiptLines } from '../../components/receipt-lines';

/**
 * The public receipt check behind the QR code: no sign-in; the service says whether the signature is valid, and the
 * receipt's own lines (the price level it was sold at; a flight's PNR masked) follow its summary.
 */
export function ReceiptCheck() {
  const { t } = useTranslation();
  const { needle } = useParams({ from: '/receipt/$needle' });
  const check = useQuery(receiptsQueries.verify(needle));
  const r = check.data?.receipt;
  return (
    <Container component="main" size="sm" py="md">
      <Stack>
        <Title order={1}>{t('tx.receipt')}</Title>
        {check.isPending && <Loading />}
        {check.error && (
          <Alert color="red" role="alert">
            {errorMessage(check.error)}
          </Alert>
        )}
        {check.data && (
          <Alert color={check.data.valid ? 'green' : 'red'} role="status" title={check.data.valid ? t('tx.valid') : t('tx.invalid')}>
            {r && (
              <Text>
                {r.description} · ₦{r.amount} · {statusWord(r.status, (k) => t(k))} · {formatDateTime(r.transactionAt)} · {r.reference}
              </Text>
            )}
            {receiptLines(r?.lines, t).map(([k, v]) => (
              <Text key={k}>
                {k}: {v}
              </Text>
            ))}
          </Alert>
        )}
      </Stack>
    </Container>
  );
}
