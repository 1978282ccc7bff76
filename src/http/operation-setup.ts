import type { Config } from '../config.js';
import type { OperatorRole } from '../kernel/actor.js';
import type { Services } from '../platform/services.js';
import { adminDeclarationProblem, authOf, type AnyOperation, type AuthKind, type OpContext } from '../platform/operation.js';
import { createAdminAudit, type AdminAudit } from './admin-audit.js';

/**
 * What registering an operation works out once (operation-route.ts), so that each of its requests only reads it:
 * authentication (operation-auth.ts), the input and context (operation-input.ts) and the gates (operation-gates.ts).
 */
export interface OperationSetup {
  readonly op: AnyOperation;
  readonly services: Services;
  readonly config: Config;
  /** The services the operation's module declared: its handlers see these and nothing else of the container. */
  readonly api: OpContext['api'];
  readonly auth: AuthKind;
  readonly adminRoles: readonly OperatorRole[];
  /** One audit row per admin call, in the transaction of its effect (http/admin-audit.ts); null outside admin. */
  readonly adminAudit: AdminAudit | null;
  /** OPERATOR_2FA=required: an operator without a confirmed authenticator or passkey runs only the enrolment operations. */
  readonly needsOperatorFactor: boolean;
  readonly strictInput: ReturnType<AnyOperation['input']['strict']>;
}

export function setupOf(op: AnyOperation, services: Services, config: Config): OperationSetup {
  const auth = authOf(op);
  // Every admin operation says which roles may run it, and every admin write its step-up (docs/security.md).
  const declarationProblem = adminDeclarationProblem(op);
  if (declarationProblem) throw new Error(declarationProblem);
  const adminAudit =
    auth === 'admin'
      ? createAdminAudit({
          db: services.db,
          clock: services.clock,
          operation: op.name,
          upstream: Boolean(op.upstream),
          read: op.method === 'GET',
          input: op.input,
          digestKey: config.secrets.pinPepper,
        })
      : null;
  return {
    op,
    services,
    config,
    api: Object.fromEntries(op.needs.map((name) => [name, services[name]])) as OpContext['api'],
    auth,
    adminRoles: op.roles ?? [],
    adminAudit,
    needsOperatorFactor: auth === 'admin' && config.operators.twoFactor === 'required' && !op.enrolsOperatorFactor,
    strictInput: op.input.strict(),
  };
}
