/**
 * A receipt as a PNG image people can send on WhatsApp: drawn on a canvas (no library), with the same lines as
 * text inside the file (an iTXt chunk), so a program can read what the picture says.
 */
export interface ReceiptPicture {
  title: string;
  /** Label and value, already translated and formatted. */
  rows: [string, string][];
  /** Shown large (an electricity token). */
  highlight?: [string, string];
  verifyLabel?: string;
  verifyUrl?: string;
  qrDataUrl?: string;
  footer: string;
}

const WIDTH = 420;
const SCALE = 2;
const PAD = 20;
const LABEL_W = 130;
const VALUE_X = PAD + LABEL_W + 10;
const VALUE_W = WIDTH - VALUE_X - PAD;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const BRAND = '#1b6e4c';

/** Words on lines no wider than `width`; a word longer than a line (a reference, a token) is cut by characters. */
function wrap(ctx: CanvasRenderingContext2D, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  const push = (word: string) => {
    const next = line ? `${line} ${word}` : word;
    if (ctx.measureText(next).width <= width) return void (line = next);
    if (line) lines.push(line);
    line = '';
    let piece = '';
    for (const ch of word) {
      if (ctx.measureText(piece + ch).width > width && piece) {
        lines.push(piece);
        piece = '';
      }
      piece += ch;
    }
    line = piece;
  };
  for (const word of text.split(/\s+/).filter(Boolean)) push(word);
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('image did not load'));
    img.src = src;
  });
}

/** Draws the receipt twice: once to measure its height, once on a canvas of that height. */
export async function receiptPng(r: ReceiptPicture): Promise<Blob> {
  const qr = r.qrDataUrl ? await loadImage(r.qrDataUrl) : null;
  const paint = (ctx: CanvasRenderingContext2D, draw: boolean): number => {
    let y = 0;
    if (draw) {
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, WIDTH, ctx.canvas.height / SCALE);
      ctx.fillStyle = BRAND;
      ctx.fillRect(0, 0, WIDTH, 56);
    }
    ctx.textBaseline = 'top';
    ctx.font = `700 20px ${FONT}`;
    ctx.fillStyle = '#ffffff';
    for (const l of wrap(ctx, r.title, WIDTH - 2 * PAD)) {
      if (draw) ctx.fillText(l, PAD, y + 16);
      y += 26;
    }
    y = Math.max(y + 14, 56) + 16;
    for (const [label, value] of r.rows) {
      ctx.font = `400 13px ${FONT}`;
      const labels = wrap(ctx, label, LABEL_W);
      ctx.font = `600 15px ${FONT}`;
      const values = wrap(ctx, value, VALUE_W);
      if (draw) {
        ctx.fillStyle = '#5c5f66';
        ctx.font = `400 13px ${FONT}`;
        labels.forEach((l, i) => ctx.fillText(l, PAD, y + 2 + i * 18));
        ctx.fillStyle = '#1a1b1e';
        ctx.font = `600 15px ${FONT}`;
        values.forEach((l, i) => ctx.fillText(l, VALUE_X, y + i * 20));
      }
      y += Math.max(labels.length * 18, values.length * 20) + 10;
    }
    if (r.highlight) {
      y += 4;
      ctx.font = `600 13px ${FONT}`;
      if (draw) {
        ctx.fillStyle = '#5c5f66';
        ctx.fillText(r.highlight[0], PAD, y);
      }
      y += 20;
      ctx.font = `700 24px ui-monospace, monospace`;
      for (const l of wrap(ctx, r.highlight[1], WIDTH - 2 * PAD)) {
        if (draw) {
          ctx.fillStyle = '#1a1b1e';
          ctx.fillText(l, PAD, y);
        }
        y += 30;
      }
      y += 6;
    }
    if (qr) {
      if (draw) ctx.drawImage(qr, (WIDTH - 160) / 2, y, 160, 160);
      y += 168;
    }
    ctx.font = `400 12px ${FONT}`;
    for (const text of [r.verifyLabel, r.verifyUrl, r.footer]) {
      if (!text) continue;
      for (const l of wrap(ctx, text, WIDTH - 2 * PAD)) {
        if (draw) {
          ctx.fillStyle = '#5c5f66';
          ctx.fillText(l, PAD, y);
        }
        y += 16;
      }
      y += 4;
    }
    return y + PAD;
  };
  const canvas = document.createElement('canvas');
  const measure = canvas.getContext('2d')!;
  const height = paint(measure, false);
  canvas.width = WIDTH * SCALE;
  canvas.height = Math.ceil(height * SCALE);
  const ctx = canvas.getContext('2d')!;
  ctx.scale(SCALE, SCALE);
  paint(ctx, true);
  const png = await new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('canvas gave no image'))), 'image/png'),
  );
  const text = [
    r.title,
    ...r.rows.map(([k, v]) => `${k}: ${v}`),
    ...(r.highlight ? [`${r.highlight[0]}: ${r.highlight[1]}`] : []),
    r.verifyUrl ?? '',
  ]
    .filter(Boolean)
    .join('\n');
  return withText(new Uint8Array(await png.arrayBuffer()), 'Description', text);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The PNG with an iTXt chunk (UTF-8 text, uncompressed) right after its header chunk. */
function withText(png: Uint8Array, keyword: string, text: string): Blob {
  const enc = new TextEncoder();
  const body = new Uint8Array([...enc.encode('iTXt'), ...enc.encode(keyword), 0, 0, 0, 0, 0, ...enc.encode(text)]);
  const chunk = new Uint8Array(body.length + 8);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, body.length - 4);
  chunk.set(body, 4);
  view.setUint32(body.length + 4, crc32(body));
  const afterHeader = 8 + 25; // signature, then IHDR (length, type, 13 bytes, CRC)
  return new Blob([png.slice(0, afterHeader), chunk, png.slice(afterHeader)], { type: 'image/png' });
}

/** Whether this browser can hand a file to the system's share sheet (phones); desktops download it instead. */
export function canShareFiles(): boolean {
  try {
    return typeof navigator.canShare === 'function' && navigator.canShare({ files: [new File([''], 'r.png', { type: 'image/png' })] });
  } catch {
    return false;
  }
}

/** Shares the file through the Web Share API when the browser can; otherwise downloads it. */
export async function shareOrDownload(blob: Blob, fileName: string, title: string): Promise<void> {
  const file = new File([blob], fileName, { type: blob.type });
  if (canShareFiles()) {
    try {
      await navigator.share({ files: [file], title });
      return;
    } catch (err) {
      // The person closed the share sheet: nothing to do. Any other refusal falls back to a download.
      if (err instanceof DOMException && err.name === 'AbortError') return;
    }
  }
  const a = document.createElement('a');
  a.href = URL.createObjectURL(file);
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
