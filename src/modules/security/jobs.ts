import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { DAY, HOUR } from '../../kernel/clock.js';
import type { Services } from '../../platform/services.js';
import { LOGIN_FAILURE_ALERT_JOB } from './login.js';

/** Retention (docs/decisions.md): failure traces 30 days, sign-in history and phone checks a year, spent grants a day. */
export const FAILURE_RETENTION_MS = 30 * DAY;
export const HISTORY_RETENTION_MS = 365 * DAY;
export const GRANT_RETENTION_MS = DAY;

export function registerSecurityJobs(services: Pick<Services, 'jobs' | 'db' | 'clock' | 'security'>) {
  const { jobs, db, clock, security } = services;
  jobs.register({
    name: LOGIN_FAILURE_ALERT_JOB,
    payload: z.object({ eventId: z.string() }),
    handler: async ({ eventId }) => security.login.alertAfterReport(eventId),
  });
  jobs.register({
    name: 'security.cleanup',
    payload: z.object({}),
    handler: async () => {
      const now = clock.now().getTime();
      await db.execute(sql`DELETE FROM stepup_grants WHERE expires_at < ${new Date(now - GRANT_RETENTION_MS)}`);
      // Passkey challenges nobody answered (passkeys.ts spends answered ones; a new one clears its user's stale ones).
      await db.execute(sql`DELETE FROM webauthn_challenges WHERE expires_at < ${new Date(now)}`);
      await db.execute(sql`DELETE FROM login_events WHERE kind <> 'login' AND created_at < ${new Date(now - FAILURE_RETENTION_MS)}`);
      await db.execute(sql`DELETE FROM login_events WHERE kind = 'login' AND created_at < ${new Date(now - HISTORY_RETENTION_MS)}`);
      await db.execute(sql`DELETE FROM phone_verifications WHERE verified_at < ${new Date(now - HISTORY_RETENTION_MS)}`);
    },
  });
  jobs.schedule({ job: 'security.cleanup', everyMs: HOUR });
}
