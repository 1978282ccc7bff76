import { z } from 'zod';

/** Naira on the wire, integer kobo inside (docs/design.md §4). */
export function toKobo(naira: number): bigint {
  return BigInt(Math.round(naira * 100));
}

export function toNaira(kobo: bigint | number | string): number {
  return Number(BigInt(kobo)) / 100;
}

let wholeNairaFormat: Intl.NumberFormat | undefined;
/**
 * A bound as people write it: ₦50, ₦1,000, ₦2.5. The schemas write their bounds into their messages when they are made,
 * and the app makes them when a screen's code loads: the common cases (up to 15 digits and 2 decimals) are written out
 * here, as Intl's en-NG writes them (test/web/money-format.test.ts), because making the first Intl formatter loads ICU's
 * data, most of the buy screen's longest task on a phone (docs/benchmarks.md); anything else goes to Intl.
 */
export const wholeNaira = (n: number): string => {
  const m = Object.is(n, -0) ? null : /^(\d{1,15})(\.\d{1,2})?$/.exec(String(n));
  if (m) return `₦${m[1].replace(/\B(?=(\d{3})+$)/g, ',')}${m[2] ?? ''}`;
  return `₦${(wholeNairaFormat ??= new Intl.NumberFormat('en-NG', { maximumFractionDigits: 2 })).format(n)}`;
};

/** A naira amount: positive, finite, at most 2 decimals. */
export const nairaAmount = (opts: { min?: number; max?: number } = {}) => {
  let s = z
    .number({ error: 'Amount must be a number (naira)' })
    .finite('Amount must be a number (naira)')
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, { message: 'Amount can have at most 2 decimals (kobo)' });
  // Bounds as checks (not refinements) so the OpenAPI document shows them as minimum / maximum.
  if (opts.min !== undefined) s = s.gte(opts.min, `Amount must be at least ${wholeNaira(opts.min)}`);
  else s = s.positive('Amount must be more than ₦0');
  if (opts.max !== undefined) s = s.lte(opts.max, `Amount can be at most ${wholeNaira(opts.max)}`);
  return s.meta({ description: 'naira, at most 2 decimals' });
};

/** An amount in an answer: naira with kobo precision (one shared schema, `Naira` in the OpenAPI components). */
export const naira = z.number().meta({ id: 'Naira', description: 'naira, at most 2 decimals (kobo precision)', examples: [1500] });

// One formatter for the process: toLocaleString with options builds a new Intl.NumberFormat on every call, which
// showed up in the transfer profile. Same output.
// Made on its first use, not when the module loads (the app loads this module with the schemas, above).
let nairaFormat: Intl.NumberFormat | undefined;

export function formatNaira(kobo: bigint): string {
  const n = toNaira(kobo);
  return `₦${(nairaFormat ??= new Intl.NumberFormat('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })).format(n)}`;
}
