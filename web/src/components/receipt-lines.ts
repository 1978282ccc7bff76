import { formatDateTime } from '../app/format';

/** The service's labels the app words itself (typed keys: a key the catalogues lack fails the typecheck). */
type LabelKey = 'buy.priceLevel';
const LABELS = new Map<string, LabelKey>([
  // Issue 45: a purchase sold at a level other than the default one (src/modules/vtu/read-model.ts).
  ['Price level', 'buy.priceLevel'],
]);
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A signed receipt's own lines (the service's `lines`: a flight's route and PNR, the price level it was sold at), as
 * the receipt screens show them: a label the app knows in the reader's language, the others as the service wrote
 * them; a moment the service wrote as an ISO instant (a flight's departure) as the app writes dates. The public
 * check gets `mask` lines masked already.
 */
export function receiptLines(
  lines: readonly { label: string; value: string }[] | undefined,
  t: (key: LabelKey) => string,
): [string, string][] {
  return (lines ?? []).map((l) => {
    const key = LABELS.get(l.label);
    return [key ? t(key) : l.label, INSTANT.test(l.value) ? formatDateTime(l.value) : l.value];
  });
}
