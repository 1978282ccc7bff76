import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import type { WhatsappDeps } from './deps.js';
import { Canvas, type Line } from './png.js';
import { receiptIdOf } from './receipt-url.js';

const WIDTH = 480;
const MARGIN = 20;
const DARK: [number, number, number] = [20, 24, 31];
const WHITE: [number, number, number] = [255, 255, 255];
const GREEN: [number, number, number] = [18, 140, 126];
/** Characters a scale-2 line holds (12 px each). */
const PER_LINE = Math.floor((WIDTH - 2 * MARGIN) / 12);

function wrap(label: string, value: string): string[] {
  const full = `${label}: ${value}`;
  const out: string[] = [];
  for (let i = 0; i < full.length; i += PER_LINE) out.push(full.slice(i, i + PER_LINE));
  return out;
}

/** The receipt's lines: what was bought, for whom, how much, its status and reference. */
function linesOf(issuer: string, tx: Awaited<ReturnType<WhatsappDeps['vtu']['getMine']>>): string[] {
  const at = new Date(tx.createdAt).toISOString().replace('T', ' ').slice(0, 16);
  return [
    ...wrap('Service', tx.service),
    ...wrap('For', tx.recipient),
    ...wrap('Amount', `NGN ${tx.amount}`),
    ...wrap('Status', tx.status),
    ...wrap('Reference', tx.reference),
    ...wrap('Date', `${at} UTC`),
    ...(tx.token ? wrap('Token', tx.token) : []),
    ...(tx.units ? wrap('Units', tx.units) : []),
    `${issuer} via WhatsApp`.slice(0, PER_LINE),
  ];
}

/** The PNG of a signed receipt file name (receipt-url.ts), or null (a bad or expired link, no such purchase). */
export async function receiptImage(deps: Pick<WhatsappDeps, 'db' | 'clock' | 'config' | 'vtu'>, file: string): Promise<Buffer | null> {
  const id = receiptIdOf(deps.config, file, deps.clock.now());
  if (!id) return null;
  const r = await one<{ user_id: string }>(
    deps.db,
    sql`SELECT user_id::text AS user_id FROM whatsapp_pin_requests WHERE transaction_id = ${id}`,
  );
  if (!r) return null;
  const tx = await deps.vtu.getMine(r.user_id, id);
  const body = linesOf(deps.config.totpIssuer, tx);
  const header = 70;
  const canvas = new Canvas(WIDTH, header + body.length * 24 + MARGIN, WHITE);
  canvas.fill(0, 0, WIDTH, header - 14, GREEN);
  const title: Line = { text: `${deps.config.totpIssuer} receipt`.slice(0, 24), scale: 3, color: WHITE };
  canvas.text(MARGIN, 18, title);
  body.forEach((text, i) => canvas.text(MARGIN, header + i * 24, { text, scale: 2, color: DARK }));
  return canvas.png();
}
