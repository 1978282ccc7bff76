import { csvLine, koboText } from '../../kernel/csv.js';
import type { Statement } from './statement-texts.js';

/**
 * The statement as CSV (issue 43): its heading lines, then one line per ledger line. Cells are the console exports'
 * (kernel/csv.ts: a cell a spreadsheet would read as a formula is defused), amounts naira with two decimals; a UTF-8
 * byte order mark first, so a spreadsheet reads Hausa and Yoruba letters right.
 */
export function statementCsv(s: Statement): Uint8Array {
  const t = s.texts;
  const out = [
    '\ufeff',
    csvLine([t.title]),
    csvLine([t.account, s.accountName]),
    csvLine([t.period, `${s.from} - ${s.to}`]),
    csvLine([t.opening, koboText(s.opening)]),
    csvLine([t.moneyIn, koboText(s.moneyIn)]),
    csvLine([t.moneyOut, koboText(s.moneyOut)]),
    csvLine([t.closing, koboText(s.closing)]),
    csvLine([t.generated, s.generatedAt]),
    '\r\n',
    csvLine([t.date, t.details, t.reference, t.amount, t.balance]),
    ...s.lines.map((l) => csvLine([l.date, l.details, l.reference, koboText(l.amount), koboText(l.balance)])),
  ];
  return new TextEncoder().encode(out.join(''));
}
