import { Alert, Button, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { receiptsQueries } from '../api/queries/vtu';
import { errorMessage } from '../app/errors';
import { formatDateTime, formatNaira } from '../app/format';
import { statusWord } from '../app/catalogue-labels';
import { purchaseDetails, type PurchaseRecord, type ReceiptDetails } from './receipt-details';
import { canShareFiles, receiptPng, shareOrDownload } from './receipt-image';
import { receiptLines } from './receipt-lines';

/**
 * "Share receipt" (phones: the system share sheet with a PNG) or "Download receipt" (desktops): the signed receipt
 * with token, units and fee and the service's own lines (the price level it was sold at), its verification link and
 * QR code, drawn as an image.
 */
export function ShareReceipt({ reference, purchase, ...p }: { reference: string; purchase?: PurchaseRecord; details?: ReceiptDetails }) {
  const { t } = useTranslation();
  const signed = useQuery(receiptsQueries.signed(reference));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const shareable = canShareFiles();

  async function make() {
    const r = signed.data!.receipt;
    setBusy(true);
    setError(null);
    try {
      const link = `${window.location.origin}/receipt/${signed.data!.needle}`;
      const qrDataUrl = await (await import('qrcode')).toDataURL(link, { margin: 1, width: 320 });
      const paid = Number(r.amount);
      const details = { ...p.details, ...(purchase ? purchaseDetails(purchase, paid) : {}) };
      const rows: [string, string][] = [
        [t('tx.description'), r.description],
        ...(details.recipient ? [[t('tx.recipient'), details.recipient] as [string, string]] : []),
        ...(details.network ? [[t('buy.network'), details.network] as [string, string]] : []),
        ...(details.plan ? [[t('buy.planLabel'), details.plan] as [string, string]] : []),
        ...(details.units ? [[t('tx.units'), details.units] as [string, string]] : []),
        ...receiptLines(r.lines, t),
        ...(details.fee !== undefined && details.fee > 0
          ? [[t('tx.fee'), formatNaira(details.fee)] as [string, string], [t('tx.total'), formatNaira(paid)] as [string, string]]
          : [[t('tx.amount'), `${r.direction === 'credit' ? '+' : '−'}${formatNaira(paid)}`] as [string, string]]),
        [t('tx.status'), statusWord(r.status, (k) => t(k))],
        [t('tx.date'), formatDateTime(r.transactionAt)],
        [t('result.reference'), r.reference],
      ];
      const png = await receiptPng({
        title: `${t('app.name')} · ${t('tx.receipt')}`,
        rows,
        highlight: details.token ? [t('result.token'), details.token] : undefined,
        verifyLabel: t('tx.verifyLink'),
        verifyUrl: link,
        qrDataUrl,
        footer: `${r.issuer} · ${formatDateTime(r.issuedAt)}`,
      });
      await shareOrDownload(png, `receipt-${r.reference}.png`, t('tx.receipt'));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="xs">
      <Button onClick={() => void make()} loading={busy || signed.isPending} disabled={!signed.data}>
        {shareable ? t('tx.share') : t('tx.download')}
      </Button>
      {(error || signed.error) && (
        <Alert color="red" role="alert">
          {errorMessage(error ?? signed.error)}
        </Alert>
      )}
    </Stack>
  );
}
