/**
 * Money for en-NG whatever the language (docs/design.md §13): ₦1,234.50; dates in Lagos time, "5 Sept 2026, 14:07" in
 * English and Intl's medium date in the page's other languages (issue 43); never computed beyond display.
 *
 * The common cases are written out here rather than asked of Intl: making the first currency or time-zone formatter
 * loads ICU's data, 10-100 ms of one task on a phone, in the middle of drawing the home screen (Lighthouse's total
 * blocking time). They give Intl's en-NG answer exactly (format.test.ts compares them over many values); anything
 * else (more than two decimals, not finite, out of range) goes to Intl, made on its first use.
 */
let naira: Intl.NumberFormat | undefined;
let dateTime: Intl.DateTimeFormat | undefined;

const intlNaira = (amount: number) =>
  (naira ??= new Intl.NumberFormat('en-NG', {
    style: 'currency',
    currency: 'NGN',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })).format(amount);
const intlDateTime = (date: Date) =>
  (dateTime ??= new Intl.DateTimeFormat('en-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' })).format(date);

export function formatNaira(amount: number): string {
  // Naira and kobo as the shortest decimal that reads back as the same number (what Intl rounds from).
  const m = /^(-?)(\d{1,15})(?:\.(\d{1,2}))?$/.exec(String(amount));
  if (!m) return intlNaira(amount);
  const sign = m[1] || Object.is(amount, -0) ? '-' : '';
  return `${sign}₦${m[2].replace(/\B(?=(\d{3})+$)/g, ',')}.${(m[3] ?? '').padEnd(2, '0')}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];
const LAGOS_OFFSET_MS = 3_600_000; // West Africa Time, UTC+1 all year (no daylight saving) since 1919
const pad = (n: number) => String(n).padStart(2, '0');

/** The page's language (i18n.ts sets it): dates in another language than English are written by Intl in it. */
const pageLanguage = () => (typeof document === 'undefined' ? 'en' : document.documentElement.lang || 'en');
const localDateTimes = new Map<string, Intl.DateTimeFormat>();
const localDateTime = (lang: string, date: Date) => {
  let f = localDateTimes.get(lang);
  if (!f)
    localDateTimes.set(
      lang,
      (f = new Intl.DateTimeFormat(`${lang}-NG`, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' })),
    );
  return f.format(date);
};

export function formatDateTime(iso: string | number | Date): string {
  const date = new Date(iso);
  // Issue 43: "2 Dis 2026, 17:30" in Hausa; English keeps the written-out fast path below.
  const lang = pageLanguage();
  if (lang !== 'en' && !Number.isNaN(date.getTime())) return localDateTime(lang, date);
  const t = date.getTime();
  // Years 1920-9999 in Lagos: the offset above holds and the year has four digits.
  if (!(t >= Date.UTC(1920, 0, 1) && t < Date.UTC(9999, 11, 31))) return intlDateTime(date);
  const lagos = new Date(t + LAGOS_OFFSET_MS);
  return `${lagos.getUTCDate()} ${MONTHS[lagos.getUTCMonth()]} ${lagos.getUTCFullYear()}, ${pad(lagos.getUTCHours())}:${pad(lagos.getUTCMinutes())}`;
}

/** An amount or a time that may be missing, as tables show them: the formatted value, or "—". */
export const money = (n: number | null | undefined) => (n === null || n === undefined ? '—' : formatNaira(n));
export const when = (iso: string | null | undefined) => (iso ? formatDateTime(iso) : '—');
