import { AppError } from '../../kernel/errors.js';
import { csvLine } from '../console/api.js';
import { batchView, cardsOf, getBatch } from './batches.js';
import type { EpinsDeps } from './deps.js';

/**
 * downloadEpinBatch (issue 45): the caller's batch as a print-ready PDF of cards or as CSV (cells formula-escaped like
 * the console's exports), answered as the file itself (the registry's `download`).
 */
export async function downloadBatch(deps: Pick<EpinsDeps, 'db' | 'secretKey'>, userId: string, id: string, format: 'pdf' | 'csv') {
  const b = batchView(await getBatch(deps, userId, id));
  const cards = await cardsOf(deps, id);
  if (!cards.length) throw new AppError('CONFLICT', 'This batch has no cards to download (none were delivered yet)');
  const name = `recharge-cards-${b.network}-${b.denomination}-${id}`;
  if (format === 'pdf') {
    // The PDF library and its fonts are loaded on the first PDF, not at start (about 20 MB a process never making one keeps).
    const { cardSheet } = await import('./card-sheet.js');
    const pdf = await cardSheet(
      { businessName: b.businessName, network: b.network, denomination: b.denomination, loadCode: b.loadCode },
      cards,
    );
    return { fileName: `${name}.pdf`, contentType: 'application/pdf', body: pdf };
  }
  let csv = csvLine(['serial', 'pin', 'network', 'denomination', 'load_code', 'business_name', 'sold_at']);
  for (const c of cards) csv += csvLine([c.serial, c.pin, b.network, b.denomination.toFixed(2), b.loadCode, b.businessName, c.soldAt]);
  return { fileName: `${name}.csv`, contentType: 'text/csv; charset=utf-8', body: new Uint8Array(Buffer.from(csv, 'utf8')) };
}
