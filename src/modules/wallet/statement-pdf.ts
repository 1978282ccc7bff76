import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { embedPdfFonts, pdfText, type PdfFonts as Fonts } from '../../lib/pdf-fonts.js';
import type { Statement } from './statement-texts.js';

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

/** The text cut to fit `width` (an ellipsis where cut). */
function fit(font: PDFFont, text: string, size: number, width: number): string {
  let t = pdfText(text);
  if (font.widthOfTextAtSize(t, size) <= width) return t;
  while (t.length > 1 && font.widthOfTextAtSize(`${t}…`, size) > width) t = [...t].slice(0, -1).join('');
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
  page.drawText(pdfText(t.title), { x: MARGIN, y, size: 16, font: f.bold });
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
 * The statement as an A4 PDF (issue 43, pdf-lib, DejaVu Sans embedded as a subset so every customer's letters print):
 * the heading, then the lines in a table over as many pages as they need, each page numbered.
 */
export async function statementPdf(s: Statement): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(pdfText(`${s.texts.title} ${s.from} - ${s.to}`));
  doc.setLanguage(s.language);
  const f = await embedPdfFonts(doc);
  let page = doc.addPage(A4);
  let y = tableHead(page, f, s, heading(page, f, s));
  if (s.lines.length === 0) page.drawText(pdfText(s.texts.none), { x: MARGIN, y, size: 10, font: f.regular });
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
    p.drawText(pdfText(`${s.texts.page} ${i + 1} / ${pages.length}`), { x: A4[0] - MARGIN - 60, y: MARGIN / 2, size: 8, font: f.regular }),
  );
  return doc.save();
}
