import type { users } from './schema.js';
import type { RowOf } from '../../db/rows.js';
import type { Db, Executor } from '../../db/client.js';
import type { Config } from '../../config.js';
import type { Clock } from '../../kernel/clock.js';
import type { Mailer } from '../../providers/messaging.js';
import type { OtpService } from './otp.js';
import type { CodeMail } from './code-mail.js';
import type { createOperatorIdle } from './operator-idle.js';
import type { Outbox } from '../notifications/api.js';
import type { DeviceService } from './devices.js';
import type { SessionCache } from './session-cache.js';
import type { TokenService } from './tokens.js';

export interface SessionView {
  accessToken: string;
  refreshToken: string;
  tokenType: 'bearer';
  expiresIn: number;
  expiresAt: string;
  user: { id: string; email: string; username: string | null };
  /** Issue 43: the sign-in waits for the second factor (completeSignIn); until then the tokens do nothing else. */
  secondFactorRequired?: true;
}

export type UserRow = Pick<
  RowOf<typeof users>,
  'id' | 'email' | 'username' | 'full_name' | 'phone' | 'phone_verified_at' | 'status' | 'kyc_tier' | 'created_at'
>;

export interface IdentityDeps {
  db: Db;
  clock: Clock;
  config: Config;
  tokens: TokenService;
  otp: OtpService;
  /** Known devices: their own attempt budgets (devices.ts). */
  devices: DeviceService;
  mailer: Mailer;
  /** Where a code goes when the mail server refuses it (code-mail.ts). */
  outbox: Outbox;
  /** Session state kept between requests, invalidated by the auth_changed feed (session-cache.ts). */
  sessionCache: SessionCache;
  /** Called in the sign-up transaction with the referral code given at first login (growth module). */
  onSignup?: (tx: Executor, userId: string, referralCode: string | undefined) => Promise<void>;
}

/** What the identity service's use cases use: its dependencies and the parts the factory builds from them. */
export interface IdentityUseCaseDeps extends IdentityDeps {
  codeMail: CodeMail;
  operatorIdle: ReturnType<typeof createOperatorIdle>;
}
