import { z } from 'zod';
import { AppError } from '../kernel/errors.js';
import type { HttpTransport } from './http-transport.js';

/** One call to a Paystack-style processor's API (processor.ts and processor-transfers.ts use it). */
export const envelope = z.object({
  status: z.boolean(),
  message: z.string().optional(),
  data: z.unknown().optional(),
  meta: z.unknown().optional(),
});

/** Where and how one processor's API is reached (createPaystackStyleAdapter builds it once). */
export interface ProcessorApi {
  id: string;
  base: string;
  headers: Record<string, string>;
  transport: HttpTransport;
  timeoutMs?: number;
}

export type Answer = { status: number; json: z.infer<typeof envelope> | null };

/** One call; an unreachable processor, a 5xx or an answer that is not its envelope is UPSTREAM_ERROR. */
export async function request(api: ProcessorApi, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
  let res;
  try {
    res = await api.transport(`${api.base}${path}`, {
      method,
      headers: api.headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: api.timeoutMs,
      upstream: `processor:${api.id}`,
    });
  } catch (err) {
    throw new AppError('UPSTREAM_ERROR', 'The payment processor could not be reached; try again shortly', { cause: err });
  }
  let json: z.infer<typeof envelope> | null = null;
  try {
    const parsed = envelope.safeParse(JSON.parse(res.text));
    if (parsed.success) json = parsed.data;
  } catch {
    json = null;
  }
  if (res.status >= 500 || (!json && res.status !== 404)) {
    throw new AppError('UPSTREAM_ERROR', `The payment processor answered ${res.status}; try again shortly`);
  }
  return { status: res.status, json };
}

export const refusal = (what: string, r: Answer) =>
  new AppError('UPSTREAM_ERROR', `The payment processor ${what}: ${r.json?.message ?? `HTTP ${r.status}`}`);
