import type { totpFactors } from './schema.js';
import type { RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import { decrypt, sha256 } from '../../lib/crypto.js';
import { createCodeTries } from './code-tries.js';
import type { RemovalOrigin } from './two-factor-removal.js';
import { matchTotpStep } from './totp.js';
import type { Db } from '../../db/client.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';
import type { Mailer } from '../../providers/messaging.js';
import type { AttemptLimits, OtpService } from '../identity/api.js';
import type { CodeSource } from './code-tries.js';
import type { CredentialNotices } from './credential-notices.js';
import type { Work } from '../../platform/change.js';
import type { PasskeyService } from './passkeys.js';

/** docs/design.md §5: grants live 10 minutes, bound to user and session; wrong codes are limited like PINs. */
export const GRANT_TTL_MS = 10 * MINUTE;

export interface TwoFactorDeps {
  db: Db;
  clock: Clock;
  otp: OtpService;
  mailer: Mailer;
  encryptionKey: string;
  issuer: string;
  identity: { forgetUser(userId: string): void };
  notices: CredentialNotices;
  work: Work;
  attempts: AttemptLimits;
  /** Known devices of an account (identity's devices): each has its own budget of code tries. */
  devices: { recognise(userId: string, from: CodeSource): Promise<string | null> };
  /** Operators' passkeys (passkeys.ts): a second factor like the authenticator. */
  passkeys: PasskeyService;
}

/** Wrong codes are budgeted in attempt_limits (code-tries.ts); the table's old lock columns are not read. */
export type FactorRow = Pick<RowOf<typeof totpFactors>, 'secret_enc' | 'confirmed_at' | 'last_step'>;

/**
 * The second factor as the use cases read it: the authenticator (a due reset finished on the way), an operator's
 * passkey, step-up grants, and a code accepted once.
 */
export function createTwoFactorFactor(deps: TwoFactorDeps) {
  const { db, clock, encryptionKey } = deps;
  const codeTries = createCodeTries(deps);

  /** The factor, after finishing a reset whose waiting period is over. */
  async function factorOf(userId: string): Promise<FactorRow | undefined> {
    const row = await one<FactorRow & { reset_due: boolean }>(
      db,
      sql`SELECT secret_enc, confirmed_at, last_step::text AS last_step,
                 EXISTS (SELECT 1 FROM two_factor_resets r WHERE r.user_id = f.user_id AND r.cancelled_at IS NULL
                           AND r.completed_at IS NULL AND r.effective_at <= ${clock.now()}) AS reset_due
          FROM totp_factors f WHERE user_id = ${userId}`,
    );
    if (!row?.reset_due) return row;
    await completeDueReset(userId);
    return undefined;
  }

  async function completeDueReset(userId: string) {
    const now = clock.now();
    const done = await db.transaction(async (tx) => {
      const r = await one<{ origin: RemovalOrigin }>(
        tx,
        sql`UPDATE two_factor_resets SET completed_at = ${now}
            WHERE user_id = ${userId} AND cancelled_at IS NULL AND completed_at IS NULL AND effective_at <= ${now} RETURNING origin`,
      );
      if (!r) return false;
      await tx.execute(sql`DELETE FROM totp_factors WHERE user_id = ${userId}`);
      const why = r.origin === 'not_me' ? 'removal that followed your "this wasn\'t me" report' : 'reset you asked for';
      const detail = `The waiting period of the ${why} is over; you can set up an authenticator again.`;
      await deps.notices.notify(tx, userId, 'totp_reset_done', detail, { everyChannel: r.origin === 'not_me' });
      return true;
    });
    if (done) deps.identity.forgetUser(userId);
  }

  async function isEnrolled(userId: string): Promise<boolean> {
    const f = await factorOf(userId);
    return Boolean(f?.confirmed_at);
  }

  /** An operator's passkey is a second factor (issue 30); a customer has none (registering one is an operator's operation). */
  const passkeyOn = async (user: AuthUser) => user.role === 'admin' && (await deps.passkeys.has(user.id));

  /** A grant is valid for the user and the session it was issued to, until it expires or is revoked. */
  async function grantValid(user: AuthUser, grantToken: string | undefined): Promise<boolean> {
    if (!grantToken || grantToken.length > 200) return false;
    const g = await one<{ user_id: string; session_id: string | null; expires_at: Date; revoked_at: Date | null }>(
      db,
      sql`SELECT user_id, session_id, expires_at, revoked_at FROM stepup_grants WHERE token_hash = ${sha256(grantToken)}`,
    );
    if (!g || g.user_id !== user.id || g.revoked_at) return false;
    if ((g.session_id ?? null) !== (user.sessionId ?? null)) return false;
    return new Date(g.expires_at).getTime() > clock.now().getTime();
  }

  /**
   * Accepts the code once: the step must be newer than the last accepted step, and the conditional UPDATE
   * makes two concurrent uses of one code fail except for one (replay within the window refused).
   */
  async function acceptTotp(userId: string, f: FactorRow, code: string, confirm: boolean, key: string): Promise<'ok' | 'replay' | 'wrong'> {
    const step = matchTotpStep(decrypt(encryptionKey, f.secret_enc), code, clock.now().getTime());
    if (step === null) return 'wrong';
    const now = clock.now();
    const done = await one(
      db,
      sql`UPDATE totp_factors SET last_step = ${step}, updated_at = ${now}
            ${confirm ? sql`, confirmed_at = ${now}` : sql``}
          WHERE user_id = ${userId} AND (last_step IS NULL OR last_step < ${step})
            ${confirm ? sql`AND confirmed_at IS NULL` : sql`AND confirmed_at IS NOT NULL`}
          RETURNING 1`,
    );
    if (done) await codeTries.succeed(key);
    // The step-up gate reads "enrolled" from the cached session state: this instance forgets it at once.
    if (done && confirm) deps.identity.forgetUser(userId);
    // A replay is refused but is not a guess: it does not count toward the lock.
    return done ? 'ok' : 'replay';
  }

  /**
   * docs/design.md §5: e-mail is never the only factor while TOTP is on. An e-mailed step-up code therefore confirms
   * only a session opened with the login PIN; a session opened with an e-mailed login code needs the app code.
   */
  async function emailStepUpAllowed(user: AuthUser, f: FactorRow | undefined): Promise<boolean> {
    if (!f?.confirmed_at && !(await passkeyOn(user))) return true;
    if (!user.sessionId) return false;
    const s = await one<{ method: string }>(db, sql`SELECT method FROM sessions WHERE id = ${user.sessionId}`);
    return s?.method === 'pin';
  }

  return { codeTries, factorOf, isEnrolled, passkeyOn, grantValid, acceptTotp, emailStepUpAllowed };
}

export type TwoFactorFactor = ReturnType<typeof createTwoFactorFactor>;
