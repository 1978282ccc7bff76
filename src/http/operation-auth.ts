import type { FastifyRequest } from 'fastify';
import { mayRun } from '../kernel/actor.js';
import { AppError } from '../kernel/errors.js';
import { forwardsToTestWorld, KEY_TOKEN, keyCaller } from './operation-key.js';
import type { OperationSetup } from './operation-setup.js';

/**
 * An operation's authentication (its route's onRequest): the bearer token (a session's, or an API key), the frozen flag,
 * roles and the second factor.
 */

function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : null;
}

/**
 * Issue 41: only a person's requests move an operator's idle clock. The header is the client's word: enough for the
 * honest operator's unattended tab, which is what the idle end protects (docs/security.md).
 */
const activityOf = ({ op }: OperationSetup, req: FastifyRequest) =>
  op.background || req.headers['x-activity'] === 'background' ? 'background' : 'person';

async function authenticate(s: OperationSetup, req: FastifyRequest): Promise<void> {
  const { op, auth, services } = s;
  const token = bearerToken(req);
  if (!token) {
    if (auth === 'public') return;
    throw new AppError('UNAUTHENTICATED', 'Authorization: Bearer <access token> is required');
  }
  // Issue 45: a test key's request is the test world's to answer (operation-key.ts); nothing live authenticates it.
  if (forwardsToTestWorld(s, req, token)) return;
  try {
    // Issue 45: an API key stands for its customer, limited to its scopes (operation-key.ts).
    req.authUser = KEY_TOKEN.test(token)
      ? await keyCaller(s, req, token)
      : await services.identity.authenticate(token, activityOf(s, req), op.pendingSignIn);
  } catch (err) {
    if (auth === 'public') return; // a stale token on a public operation is ignored
    throw err;
  }
  // Issue 30: a frozen customer signs in and reads but moves no money, whatever the input (before validation and
  // every gate). The flag rides on the session state authenticate already loaded (cached): no extra round trip.
  if (op.gates?.money && (req.authUser.frozen ?? (await services.customers.isFrozen(req.authUser.id))))
    throw new AppError('ACCOUNT_FROZEN', 'This account is on hold: an operator froze it, so money cannot move until it is unfrozen');
  if (auth === 'admin') await checkOperator(s, req);
}

async function checkOperator({ op, adminRoles, needsOperatorFactor, services }: OperationSetup, req: FastifyRequest): Promise<void> {
  const held = req.authUser!.operatorRoles;
  if (!held.length) throw new AppError('FORBIDDEN', 'Operator role required');
  if (!mayRun(held, adminRoles)) throw new AppError('FORBIDDEN', `${op.name} needs the ${['admin', ...adminRoles].join(' or ')} role`);
  if (needsOperatorFactor && !(await services.security.hasOperatorFactor(req.authUser!)))
    throw new AppError(
      'OPERATOR_2FA_REQUIRED',
      'Operators need a second factor: set up an authenticator (beginTotpEnrollment) or a passkey (adminPasskeyRegisterOptions) first',
    );
}

/**
 * The route's onRequest hook. A public operation ignores a token it cannot use; an admin call's refusal after
 * sign-in (roles, second factor) still leaves its audit row.
 */
export function authenticationOf(s: OperationSetup): (req: FastifyRequest) => Promise<void> {
  if (s.auth === 'public') return async (req) => authenticate(s, req).catch(() => undefined);
  const audit = s.adminAudit;
  if (!audit) return (req) => authenticate(s, req);
  return async (req) => {
    try {
      await authenticate(s, req);
    } catch (err) {
      if (err instanceof AppError) await audit.refused(req, err.code);
      throw err;
    }
  };
}
