import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFObject } from 'pdf-lib';

/** A CSV file's rows (RFC 4180: quoted cells, doubled quotes, CRLF), the byte order mark dropped. */
export function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const s = text.replace(/^\ufeff/, '');
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && s[i + 1] === '\n') {
      row.push(cell);
      out.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length) out.push([...row, cell]);
  return out;
}

/** A font's ToUnicode CMap: its codes (hex) to the text they draw (bfchar and bfrange entries). */
function toUnicode(cmap: string): Map<string, string> {
  const out = new Map<string, string>();
  const utf16 = (hex: string) => Buffer.from(hex, 'hex').swap16().toString('utf16le');
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const m of block[1].matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) out.set(m[1].toUpperCase(), utf16(m[2]));
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
    for (const m of block[1].matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) {
      const [lo, hi, first] = [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)];
      for (let c = lo; c <= hi; c++) out.set(c.toString(16).toUpperCase().padStart(m[1].length, '0'), String.fromCodePoint(first + c - lo));
    }
  return out;
}

const streamText = (s: PDFObject | undefined): string =>
  s instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(s).decode()).toString('latin1') : '';

/**
 * The text a PDF made by pdf-lib shows, read with pdf-lib: each page's content streams, their hex strings (`<..> Tj`)
 * decoded through the current font's ToUnicode map (an embedded font's glyph codes), or as WinAnsi bytes for a
 * standard font.
 */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes);
  const parts: string[] = [];
  for (const page of doc.getPages()) {
    const fonts = new Map<string, Map<string, string> | null>();
    const dict = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
    for (const [name, ref] of dict?.entries() ?? []) {
      const font = doc.context.lookup(ref, PDFDict);
      const map = font.lookup(PDFName.of('ToUnicode'));
      fonts.set(name.asString(), map ? toUnicode(streamText(map)) : null);
    }
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    let map: Map<string, string> | null = null;
    for (const content of streams.map(streamText))
      for (const t of content.matchAll(/(\/[^\s/]+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]*)>\s*Tj/g)) {
        if (t[1]) map = fonts.get(t[1]) ?? null;
        else if (!map) parts.push(Buffer.from(t[2], 'hex').toString('latin1'));
        else parts.push((t[2].toUpperCase().match(/.{4}/g) ?? []).map((code) => map!.get(code) ?? '\ufffd').join(''));
      }
  }
  return parts.join('\n');
}

/** The names of the fonts a PDF's pages use ("DejaVuSans-6186" for an embedded one, "Helvetica" for a standard one). */
export async function pdfFontNames(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  const names = new Set<string>();
  for (const page of doc.getPages()) {
    const dict = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
    for (const [, ref] of dict?.entries() ?? []) names.add(String(doc.context.lookup(ref, PDFDict).get(PDFName.of('BaseFont'))).slice(1));
  }
  return [...names];
}
