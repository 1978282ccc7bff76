import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { Statement } from './statement-texts.js';

/** WinAnsi's characters above Latin-1's first 256 (the standard PDF fonts' encoding). */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const SPECIAL: Record<string, string> = { ɗ: 'd', Ɗ: 'D', ƙ: 'k', Ƙ: 'K', ƴ: 'y', Ƴ: 'Y', '₦': 'N' };

/**
 * Text in the standard fonts' WinAnsi encoding (no font is embedded: docs/decisions.md): a letter it lacks keeps its
 * base letter and the accents WinAnsi has (Yoruba 'ọ́' -> 'ó', 'ṣ' -> 's'), Hausa's hooked letters their plain one.
 */
export function winAnsi(s: string): string {
  // Keep the accents Latin-1 composes (grave, acute, circumflex, tilde, diaeresis), drop the others (a dot below).
  const composed = s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, (m) => ('\u0300\u0301\u0302\u0303\u0308'.includes(m) ? m : ''))
    .normalize('NFC');
  let out = '';
  for (const ch of composed) {
    if (ch.charCodeAt(0) < 0x100 || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else out += SPECIAL[ch] ?? ch.normalize('NFD')[0];
  }
  return out.replace(/[^\x20-\x7e\xa0-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/g, '?');
}

/** Naira with thousands separators and two decimals, exactly: -150050n -> "-1,500.50". */
export function nairaText(kobo: bigint): string {
  const neg = kobo < 0n;
  const abs = neg ? -kobo : kobo;
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}${whole}.${(abs % 100n).toString().padStart(2, '0')}`;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 40;
const SIZE = 8.5;
const ROW = 14;
/** The table's columns: x, width, right-aligned. */
const COLS = [
  { x: MARGIN, w: 78, right: false },
  { x: MARGIN + 82, w: 196, right: false },
  { x: MARGIN + 282, w: 104, right: false },
  { x: MARGIN + 390, w: 60, right: true },
  { x: MARGIN + 454, w: 61, right: true },
];

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** The text cut to fit `width` (an ellipsis where cut). */
function fit(font: PDFFont, text: string, size: number, width: number): string {
  let t = winAnsi(text);
  if (font.widthOfTextAtSize(t, size) <= width) return t;
  while (t.length > 1 && font.widthOfTextAtSize(`${t}…`, size) > width) t = t.slice(0, -1);
  return `${t}…`;
}

function row(page: PDFPage, font: PDFFont, y: number, cells: string[]) {
  cells.forEach((cell, i) => {
    const c = COLS[i];
    const t = fit(font, cell, SIZE, c.w);
    const x = c.right ? c.x + c.w - font.widthOfTextAtSize(t, SIZE) : c.x;
    page.drawText(t, { x, y, size: SIZE, font });
  });
}

/** The heading block: title, account, period, the balances. Returns where the table starts. */
function heading(page: PDFPage, f: Fonts, s: Statement): number {
  const t = s.texts;
  let y = A4[1] - MARGIN - 16;
  page.drawText(winAnsi(t.title), { x: MARGIN, y, size: 16, font: f.bold });
  y -= 24;
  const pairs: [string, string][] = [
    [t.account, s.accountName],
    [t.period, `${s.from} - ${s.to}`],
    [t.opening, `NGN ${nairaText(s.opening)}`],
    [t.moneyIn, `NGN ${nairaText(s.moneyIn)}`],
    [t.moneyOut, `NGN ${nairaText(s.moneyOut)}`],
    [t.closing, `NGN ${nairaText(s.closing)}`],
    [t.generated, s.generatedAt],
  ];
  for (const [k, v] of pairs) {
    page.drawText(fit(f.bold, k, 10, 150), { x: MARGIN, y, size: 10, font: f.bold });
    page.drawText(fit(f.regular, v, 10, 330), { x: MARGIN + 160, y, size: 10, font: f.regular });
    y -= 15;
  }
  return y - 10;
}

function tableHead(page: PDFPage, f: Fonts, s: Statement, y: number): number {
  const t = s.texts;
  row(page, f.bold, y, [t.date, t.details, t.reference, t.amount, t.balance]);
  page.drawLine({ start: { x: MARGIN, y: y - 4 }, end: { x: A4[0] - MARGIN, y: y - 4 }, thickness: 0.5, color: rgb(0.5, 0.5, 0.5) });
  return y - ROW - 2;
}

/**
 * The statement as an A4 PDF (issue 43, pdf-lib, the standard Helvetica fonts): the heading, then the lines in a
 * table over as many pages as they need, each page numbered.
 */
export async function statementPdf(s: Statement): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(winAnsi(`${s.texts.title} ${s.from} - ${s.to}`));
  doc.setLanguage(s.language);
  const f: Fonts = { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
  let page = doc.addPage(A4);
  let y = tableHead(page, f, s, heading(page, f, s));
  if (s.lines.length === 0) page.drawText(winAnsi(s.texts.none), { x: MARGIN, y, size: 10, font: f.regular });
  for (const l of s.lines) {
    if (y < MARGIN + ROW) {
      page = doc.addPage(A4);
      y = tableHead(page, f, s, A4[1] - MARGIN - 10);
    }
    row(page, f.regular, y, [l.date, l.details, l.reference, nairaText(l.amount), nairaText(l.balance)]);
    y -= ROW;
  }
  const pages = doc.getPages();
  pages.forEach((p, i) =>
    p.drawText(winAnsi(`${s.texts.page} ${i + 1} / ${pages.length}`), { x: A4[0] - MARGIN - 60, y: MARGIN / 2, size: 8, font: f.regular }),
  );
  return doc.save();
}
