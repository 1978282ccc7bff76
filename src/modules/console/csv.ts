/**
 * CSV cells (RFC 4180) for the exports: a cell with a comma, quote or line break is quoted with inner quotes
 * doubled, and a text cell a spreadsheet would read as a formula (starting with = + - @, tab or carriage return) gets a
 * leading apostrophe (OWASP "CSV injection"). Numbers we format ourselves (-1500.00) are data, never a formula,
 * and stay as they are so accountants can sum them (docs/decisions.md).
 */
const NUMBER = /^-?\d+(\.\d+)?$/;
const FORMULA = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

export function csvCell(value: string | number | bigint | boolean | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  let s = value instanceof Date ? value.toISOString() : String(value);
  if (!NUMBER.test(s) && FORMULA.test(s)) s = `'${s}`;
  return NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One CSV line, CRLF-terminated as RFC 4180 has it. */
export function csvLine(cells: readonly (string | number | bigint | boolean | Date | null | undefined)[]): string {
  return cells.map(csvCell).join(',') + '\r\n';
}

/** Kobo (int8 as text) as naira with two decimals, exactly (no float): "-150050" -> "-1500.50". */
export function koboText(kobo: string | bigint | null): string {
  if (kobo === null) return '';
  const k = BigInt(kobo);
  const neg = k < 0n;
  const abs = neg ? -k : k;
  return `${neg ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}
