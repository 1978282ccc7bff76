/**
 * The providers' catalogue labels as people read them (issue 43), in the app only: stored names stay as the
 * provider sent them. "500.0MB SME/CG/GIFTING" -> "500 MB", "1.50GB Corporate" -> "1.5 GB", "DSTV Subscription" ->
 * "DStv", "prepaid" -> "Prepaid".
 */
const SIZE = /^\s*(\d+(?:\.\d+)?)\s*(KB|MB|GB|TB)\b/i;

/** A data plan's name: its size with a space and without trailing zeros; a name without a size is kept. */
export function planName(name: string): string {
  const m = SIZE.exec(name);
  if (!m) return name.trim();
  return `${Number(m[1])} ${m[2]!.toUpperCase()}`;
}

const BRANDS: [RegExp, string][] = [
  [/^dstv\b/i, 'DStv'],
  [/^gotv\b/i, 'GOtv'],
  [/^startimes\b/i, 'StarTimes'],
  [/^showmax\b/i, 'Showmax'],
];

/** A product's name: the brand as it writes itself, without "Subscription"; anything else keeps its words. */
export function productName(name: string): string {
  const brand = BRANDS.find(([re]) => re.test(name.trim()));
  if (brand) return brand[1];
  return name.trim();
}

/** A lower-case catalogue word ("prepaid", "postpaid") with its first letter capitalised. */
export const capitalised = (word: string) => (word ? word[0]!.toUpperCase() + word.slice(1) : word);

/** The exam bodies, written in capitals ("waec" -> "WAEC"). */
const EXAMS = new Set(['waec', 'neco', 'jamb', 'nabteb']);

/**
 * A purchase's product outside the buy screen (receipts, history): the provider, company or exam it was bought from,
 * as the catalogue's id or name ("dstv" -> "DStv", "ikeja-electric" -> "Ikeja Electric", "waec" -> "WAEC"); a data
 * plan's name by its size.
 */
export function productLabel(service: string, product: string): string {
  const p = product.trim();
  if (service === 'data') return planName(p);
  if (EXAMS.has(p.toLowerCase())) return p.toUpperCase();
  const brand = productName(p);
  if (brand !== p) return brand;
  return /[A-Z]/.test(p)
    ? p
    : p
        .split(/[-_\s]+/)
        .filter(Boolean)
        .map(capitalised)
        .join(' ');
}

/**
 * The translation key of a transaction's status as a customer reads it (receipts, history, details): "success" is
 * "Successful", "pending" reads as processing, a wallet line's "completed" as completed; null for a status the app
 * has no word for (shown capitalised).
 */
export function statusKey(status: string): 'result.success' | 'result.failed' | 'result.processing' | 'result.completed' | null {
  if (status === 'success' || status === 'successful') return 'result.success';
  if (status === 'failed' || status === 'refunded') return 'result.failed';
  if (status === 'processing' || status === 'pending') return 'result.processing';
  if (status === 'completed') return 'result.completed';
  return null;
}

/** A status in the reader's words: `word` translates statusKey's key; an unknown status is shown capitalised. */
export function statusWord(status: string, word: (key: NonNullable<ReturnType<typeof statusKey>>) => string): string {
  const key = statusKey(status);
  return key ? word(key) : capitalised(status);
}
