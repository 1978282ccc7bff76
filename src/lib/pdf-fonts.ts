import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';

/**
 * Fonts for the PDFs customers and resellers get (statements, e-PIN card sheets): DejaVu Sans from the
 * `dejavu-fonts-ttf` package (the Bitstream Vera licence: free to embed), embedded as a subset of the glyphs a
 * document uses. The standard PDF fonts speak WinAnsi only, so Hausa's ƙ ɗ ɓ and Yoruba's ẹ ọ ṣ with their tones
 * could not be printed (issue 43); DejaVu has them all and the naira sign. The files (0.7 MB each) are read once, on
 * the first PDF, and kept; a statement of 30 lines is about 19 KB, and parsing the two fonts costs about 100 ms of
 * CPU per document (docs/decisions.md).
 */
export interface PdfFonts {
  regular: PDFFont;
  bold: PDFFont;
}

const FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const;
const require = createRequire(import.meta.url);
const cache = new Map<string, Promise<Buffer>>();

function fontFile(name: string): Promise<Buffer> {
  let file = cache.get(name);
  if (!file) {
    file = readFile(require.resolve(`dejavu-fonts-ttf/ttf/${name}`));
    file.catch(() => cache.delete(name));
    cache.set(name, file);
  }
  return file;
}

/** One of the fonts, embedded in the document (fontkit registered on it) as a subset of what it draws. */
export async function embedPdfFont(doc: PDFDocument, weight: keyof PdfFonts): Promise<PDFFont> {
  doc.registerFontkit(fontkit);
  return doc.embedFont(await fontFile(FILES[weight]), { subset: true });
}

/** The document's regular and bold fonts. */
export async function embedPdfFonts(doc: PDFDocument): Promise<PdfFonts> {
  const [regular, bold] = await Promise.all([embedPdfFont(doc, 'regular'), embedPdfFont(doc, 'bold')]);
  return { regular, bold };
}

/**
 * Text as the fonts draw it: composed (NFC), so a letter and its accent are one glyph wherever Unicode has one
 * (Yoruba "ọ́" is ọ + a combining acute, which DejaVu places over it), and without control characters.
 */
export const pdfText = (s: string): string => s.normalize('NFC').replace(/\p{Cc}/gu, ' ');
