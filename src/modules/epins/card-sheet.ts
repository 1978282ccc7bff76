import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { embedPdfFont, pdfText } from '../../lib/pdf-fonts.js';
import type { Card } from './batches.js';

/** A4 in points; a sheet of 3 × 8 cards, each the size of a business card, with cut margins between them. */
const PAGE = { width: 595.28, height: 841.89 };
const COLUMNS = 3;
const ROWS = 8;
const MARGIN = 24;
const GAP = 6;
const CARD_W = (PAGE.width - 2 * MARGIN - (COLUMNS - 1) * GAP) / COLUMNS;
const CARD_H = (PAGE.height - 2 * MARGIN - (ROWS - 1) * GAP) / ROWS;

export interface SheetBatch {
  businessName: string;
  network: string;
  denomination: number;
  loadCode: string;
}

/** The business name as the embedded font draws it (any letter: "Ọlá Ɗanƙwambo Ventures"), at most 32 characters. */
const businessName = (s: string) => [...pdfText(s)].slice(0, 32).join('');

/** The PIN in groups of four, as printed cards show it (easier to dial). */
const grouped = (pin: string) => pin.replace(/(\d{4})(?=\d)/g, '$1 ');

function drawCard(
  page: PDFPage,
  fonts: { name: PDFFont; bold: PDFFont; regular: PDFFont; mono: PDFFont },
  b: SheetBatch,
  c: Card,
  x: number,
  y: number,
) {
  page.drawRectangle({
    x,
    y,
    width: CARD_W,
    height: CARD_H,
    borderColor: rgb(0.55, 0.55, 0.55),
    borderWidth: 0.6,
    borderDashArray: [3, 2],
  });
  const left = x + 8;
  const top = y + CARD_H - 14;
  page.drawText(businessName(b.businessName), { x: left, y: top, size: 8.5, font: fonts.name });
  page.drawText(`${b.network.toUpperCase()}  NGN ${b.denomination.toLocaleString('en-NG')}`, {
    x: left,
    y: top - 15,
    size: 11,
    font: fonts.bold,
  });
  page.drawText('PIN', { x: left, y: top - 31, size: 6.5, font: fonts.regular, color: rgb(0.35, 0.35, 0.35) });
  page.drawText(grouped(c.pin), { x: left, y: top - 43, size: 11, font: fonts.mono });
  page.drawText(`Serial ${c.serial}`, { x: left, y: top - 58, size: 7, font: fonts.regular });
  page.drawText(`Load: ${b.loadCode}`, { x: left, y: top - 70, size: 7.5, font: fonts.bold });
}

/**
 * The batch's print-ready card sheet (issue 45): A4 pages of 3 × 8 cards, each with the business name, network and
 * face value, the PIN, its serial and the network's load code, in the cards' order. The business name is drawn in
 * DejaVu Sans Bold, embedded as a subset of its letters (lib/pdf-fonts.ts: any language's letters); the rest, digits
 * and ASCII, in the standard fonts, so 1,000 cards stay a few hundred kilobytes.
 */
export async function cardSheet(b: SheetBatch, cards: Card[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${pdfText(b.businessName)} ${b.network.toUpperCase()} NGN ${b.denomination} recharge cards`);
  doc.setCreator('recharge card printing');
  const fonts = {
    name: await embedPdfFont(doc, 'bold'),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    regular: await doc.embedFont(StandardFonts.Helvetica),
    mono: await doc.embedFont(StandardFonts.CourierBold),
  };
  const perPage = COLUMNS * ROWS;
  for (let start = 0; start < cards.length; start += perPage) {
    const page = doc.addPage([PAGE.width, PAGE.height]);
    cards.slice(start, start + perPage).forEach((c, i) => {
      const col = i % COLUMNS;
      const row = Math.floor(i / COLUMNS);
      drawCard(page, fonts, b, c, MARGIN + col * (CARD_W + GAP), PAGE.height - MARGIN - (row + 1) * CARD_H - row * GAP);
    });
  }
  return doc.save();
}
