import { z } from 'zod';

/**
 * The operators' alerts (issue 44, src/modules/console/alerts.ts): how long each kind of waiting work may wait before
 * the operators whose role can act on it are e-mailed and pushed, the float and pool levels below which they are, and
 * how often the check runs.
 */
export const ALERT_KINDS = ['approvals', 'kyc', 'stuck', 'support', 'reports', 'topups', 'deadLetters'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Minutes each kind may wait before its alert (a dead letter: how long the oldest may stay dead). */
export const ALERT_AFTER_DEFAULTS: Record<AlertKind, number> = {
  approvals: 30,
  kyc: 240,
  stuck: 30,
  support: 60,
  reports: 240,
  topups: 30,
  deadLetters: 0,
};

export const alertsEnv = {
  ALERT_AFTER_MINUTES: z
    .string()
    .optional()
    .refine(
      (s) => {
        if (!s) return true;
        try {
          const v = JSON.parse(s) as unknown;
          return (
            typeof v === 'object' &&
            v !== null &&
            !Array.isArray(v) &&
            Object.entries(v).every(
              ([k, m]) => (ALERT_KINDS as readonly string[]).includes(k) && typeof m === 'number' && Number.isInteger(m) && m >= 0,
            )
          );
        } catch {
          return false;
        }
      },
      `ALERT_AFTER_MINUTES must be JSON like {"approvals":30,"kyc":240} with kinds among ${ALERT_KINDS.join(', ')} and whole minutes`,
    ),
  ALERT_FLOAT_BELOW: z.coerce.number().int().min(0).default(50_000),
  ALERT_POOL_BELOW: z.coerce.number().int().min(0).default(0),
  ALERT_EVERY_MS: z.coerce
    .number()
    .int()
    .min(10_000)
    .default(5 * 60_000),
};

export interface AlertsConfig {
  /** Milliseconds each kind may wait before it is alerted. */
  afterMs: Record<AlertKind, number>;
  /** A provider's float below this (kobo) is alerted. */
  floatBelow: bigint;
  /** The collections pool below this (kobo) is alerted. */
  poolBelow: bigint;
  everyMs: number;
}

type AlertsEnv = z.infer<z.ZodObject<typeof alertsEnv>>;

export function alertsConfig(e: AlertsEnv): AlertsConfig {
  const minutes = {
    ...ALERT_AFTER_DEFAULTS,
    ...(e.ALERT_AFTER_MINUTES ? (JSON.parse(e.ALERT_AFTER_MINUTES) as Partial<Record<AlertKind, number>>) : {}),
  };
  return {
    afterMs: Object.fromEntries(ALERT_KINDS.map((k) => [k, minutes[k] * 60_000])) as Record<AlertKind, number>,
    floatBelow: BigInt(e.ALERT_FLOAT_BELOW) * 100n,
    poolBelow: BigInt(e.ALERT_POOL_BELOW) * 100n,
    everyMs: e.ALERT_EVERY_MS,
  };
}
