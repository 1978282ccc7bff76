import { sql, type SQL } from 'drizzle-orm';
import { one, type Db, type Executor } from '../../db/client.js';
import { HOUR, MINUTE, type Clock } from '../../kernel/clock.js';
import { uuid } from '../../kernel/ids.js';
import type { Work } from '../../platform/change.js';

/** Failures (reported or observed) of one account within this window count toward its alert. */
export const FAILURE_WINDOW_MS = 15 * MINUTE;
/** Failures on one account within the window that trigger an alert e-mail (at most one an hour). */
export const ALERT_THRESHOLD = 5;
/** The job that checks, after a reported failure was answered, whether the account's owner should be alerted. */
export const LOGIN_FAILURE_ALERT_JOB = 'security.loginFailureAlert';

/** A failed sign-in as login_events records it. */
export interface LoginFailure {
  userId: string | null;
  idHash: string;
  ip?: string;
  userAgent?: string;
  method: string;
  reason: string;
  source: 'client' | 'server';
}

/** Failed sign-ins: their record, and the alert to the account's owner once they pile up. */
export function createLoginFailures({ db, clock, work }: { db: Db; clock: Clock; work: Work }) {
  async function recordFailure(exec: Executor, f: LoginFailure) {
    await exec.execute(sql`INSERT INTO login_events (id, user_id, kind, source, method, ip, user_agent, identifier_hash, reason, created_at)
                           VALUES (${uuid()}, ${f.userId}, 'failure', ${f.source}, ${f.method}, ${f.ip ?? null}, ${f.userAgent ?? null},
                                   ${f.idHash}, ${f.reason}, ${clock.now()})`);
  }

  /**
   * At most one alert an hour, once an account has ALERT_THRESHOLD failures inside the window. The e-mail goes
   * out through the notifications module (login_alert is always e-mailed, from a job, only if this transaction commits).
   */
  async function maybeAlert(userId: string) {
    const now = clock.now();
    await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
      const n = await one<{ n: number }>(
        tx,
        sql`SELECT count(*)::int AS n FROM login_events WHERE user_id = ${userId} AND kind = 'failure'
            AND created_at > ${new Date(now.getTime() - FAILURE_WINDOW_MS)}`,
      );
      if ((n?.n ?? 0) < ALERT_THRESHOLD) return;
      const recent = await one(
        tx,
        sql`SELECT 1 FROM login_events WHERE user_id = ${userId} AND kind = 'failure_alert' AND created_at > ${new Date(now.getTime() - HOUR)}`,
      );
      if (recent) return;
      await tx.execute(
        sql`INSERT INTO login_events (id, user_id, kind, source, created_at) VALUES (${uuid()}, ${userId}, 'failure_alert', 'server', ${now})`,
      );
      const body = `There were ${n!.n} failed sign-in attempts on your account in the last 15 minutes. If this was not you, keep your PINs and codes private; you may change your login PIN in Settings.`;
      await work
        .change(tx)
        .notify({
          userId,
          kind: 'login_alert',
          title: 'Failed sign-in attempts on your account',
          body,
          data: { event: 'failures', failures: n!.n },
        })
        .commit();
    });
  }

  /**
   * A client's reported failure: one change records it, with the account looked up inside its statement, and
   * enqueues the alert check (LOGIN_FAILURE_ALERT_JOB), so the work does not depend on whether an account exists.
   */
  async function recordReported(f: Omit<LoginFailure, 'userId' | 'source'> & { account: SQL }) {
    const eventId = uuid();
    await work
      .change()
      .write(
        (each) => sql`INSERT INTO login_events (id, user_id, kind, source, method, ip, user_agent, identifier_hash, reason, created_at)
                      SELECT ${eventId}::uuid, ${f.account}, 'failure', 'client', ${f.method}::text, ${f.ip ?? null}::text,
                             ${f.userAgent ?? null}::text, ${f.idHash}::text, ${f.reason}::text, ${clock.now()}::timestamptz FROM ${each}`,
      )
      .enqueue(LOGIN_FAILURE_ALERT_JOB, { eventId })
      .commit();
  }

  /** The alert check of a reported failure (LOGIN_FAILURE_ALERT_JOB): only for a failure on a real account. */
  async function alertAfterReport(eventId: string) {
    const ev = await one<{ user_id: string | null }>(db, sql`SELECT user_id FROM login_events WHERE id = ${eventId}`);
    if (ev?.user_id) await maybeAlert(ev.user_id);
  }

  return { recordFailure, maybeAlert, recordReported, alertAfterReport };
}

export type LoginFailures = ReturnType<typeof createLoginFailures>;
