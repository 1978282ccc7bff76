/**
 * CSV cells (RFC 4180) for the exports: a cell with a comma, quote or line break is quoted with inner quotes
 * doubled, and a text cell a spreadsheet would read as a formula gets an apostrophe before the formula's first
 * character (OWASP "CSV injection"): at the start of the cell (= + - @, tab or carriage return), and after any
 * separator inside it (; , | tab, a line break), since a spreadsheet that splits the line on another separator than
 * ours (';' in many locales) starts a new cell there; full-width and other compatibility forms of the leads count
 * too. Numbers we format ourselves (-1500.00) are data, never a formula, and stay as they are so accountants can
 * sum them (docs/decisions.md).
 */
const NUMBER = /^-?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;
/**
 * - = + @ ('-' first: a literal in the class below) and every character whose NFKC form starts with one: superscript,
 * subscript, small and full-width forms, '⩵', '⩶', the Hebrew alternative plus (spreadsheets fold compatibility
 * forms). test/console/csv.test.ts walks every code point to keep this list whole.
 */
const FORMULA_LEADS = '-=+@\u207a\u207c\u208a\u208c\u2a75\u2a76\ufb29\ufe62\ufe63\ufe66\ufe6b\uff0b\uff0d\uff1d\uff20';
/** A formula lead at a cell's start as any spreadsheet may split the line, after the blanks and quotes it skips. */
const FORMULA_AT = new RegExp(`(^|[;,|\\t\\r\\n])([\\s"]*)([${FORMULA_LEADS}])`, 'g');

/** The text with an apostrophe before every formula lead a spreadsheet could see at the start of a cell. */
function guarded(s: string): string {
  const t = s.replace(FORMULA_AT, "$1$2'$3");
  return t.startsWith('\t') || t.startsWith('\r') ? `'${t}` : t;
}

export function csvCell(value: string | number | bigint | boolean | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  let s = value instanceof Date ? value.toISOString() : String(value);
  if (!NUMBER.test(s)) s = guarded(s);
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
