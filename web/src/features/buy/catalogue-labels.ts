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
