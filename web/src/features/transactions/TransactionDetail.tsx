import { Alert, Image, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { receiptsQueries } from '../../api/queries/vtu';
import { ShareReceipt } from '../../components/ShareReceipt';
import { errorMessage } from '../../app/errors';
import { formatDateTime } from '../../app/format';
import { statusWord } from '../../app/catalogue-labels';
import { usePurchase } from './purchase-details';
import { Loading } from '../../components/Loaded';
import { receiptLines } from '../../components/receipt-lines';

/**
 * One money movement with its signed receipt (with the service's own lines: a flight's booking, the price level it was
 * sold at): download, share, and the public verification link as a QR code.
 */
export function TransactionDetail() {
  const { t } = useTranslation();
  const { reference } = useParams({ from: '/app/transactions/$reference' });
  const signed = useQuery(receiptsQueries.signed(reference));
  const purchase = usePurchase(reference);
  const link = signed.data ? `${window.location.origin}/receipt/${signed.data.needle}` : '';
  const qr = useQuery(receiptsQueries.qr(link));
  const r = signed.data?.receipt;

  return (
    <Stack maw={560}>
      <Title order={1}>{t('tx.detail')}</Title>
      {signed.error && (
        <Alert color="red" role="alert">
          {errorMessage(signed.error)}
        </Alert>
      )}
      {!r && !signed.error && <Loading />}
      {r && (
        <>
          <Table aria-label={t('tx.receipt')} layout="fixed" className="receipt-table">
            <Table.Tbody>
              <Row k={t('tx.description')} v={r.description} />
              {receiptLines(r.lines, t).map(([k, v]) => (
                <Row key={k} k={k} v={v} />
              ))}
              <Row
                k={t('tx.amount')}
                v={`${r.direction === 'credit' ? '+' : '−'}₦${Number(r.amount).toLocaleString('en-NG', { minimumFractionDigits: 2 })}`}
              />
              <Row k={t('tx.status')} v={statusWord(r.status, (k) => t(k))} />
              <Row k={t('tx.date')} v={formatDateTime(r.transactionAt)} />
              <Row k={t('result.reference')} v={r.reference} />
            </Table.Tbody>
          </Table>
          <ShareReceipt reference={reference} purchase={purchase} />
          <Text size="sm">{t('tx.verifyLink')}</Text>
          <Text size="sm" component="a" href={link} data-testid="verify-link" style={{ wordBreak: 'break-all' }}>
            {link}
          </Text>
          {qr.data && <Image src={qr.data} alt={t('tx.qr')} w={220} h={220} />}
        </>
      )}
    </Stack>
  );
}

function Row({ k, v }: { k: string; v: string }) {
  return (
    <Table.Tr>
      <Table.Th scope="row">{k}</Table.Th>
      <Table.Td>{v}</Table.Td>
    </Table.Tr>
  );
}
