import type { Executor } from '../../db/client.js';
import type { AuthUser, OperatorRole } from '../../kernel/actor.js';
import type { OperatorsDeps, OperatorsUseCaseDeps } from './deps.js';
import { adminAddresses, holdersOf, listOperators, mayDecideSince, operatorOf } from './operator-reads.js';
import { announce, type AnnouncedChange } from './announce.js';
import { acceptInvitations, grantRole, revokeRole } from './role-changes.js';
import { listInvitations, revokeInvitation } from './invitations.js';
import type { Change } from '../../platform/change.js';

export type { OperatorsDeps } from './deps.js';
export type { AnnouncedChange } from './announce.js';
export type { OperatorView } from './operator-reads.js';
export type { InvitationView } from './invitations.js';

export type OperatorsService = ReturnType<typeof createOperators>;

/** Operators and their roles (deps.ts): one file per use case, wired here with ADMIN_EMAILS lower-cased. */
export function createOperators(deps: OperatorsDeps) {
  const adminEmails = deps.adminEmails.map((e) => e.toLowerCase());
  const useCases: OperatorsUseCaseDeps = { ...deps, adminEmails, emailList: JSON.stringify(adminEmails) };
  return {
    operatorOf: (exec: Executor, userId: string) => operatorOf(useCases, exec, userId),
    /** The e-mail of every active account holding admin (granted, or through ADMIN_EMAILS). */
    adminAddresses: (exec?: Executor) => adminAddresses(useCases, exec),
    /** The active accounts holding any of these roles (ADMIN_EMAILS' admins for admin), by e-mail. */
    holdersOf: (roles: readonly OperatorRole[]) => holdersOf(useCases, roles),
    /** Since when the operator may decide money requests (operator-reads.ts); null without such a role. */
    mayDecideSince: (userId: string, allowed: readonly OperatorRole[]) => mayDecideSince(useCases, userId, allowed),
    /** E-mails every admin about an authority change (registry `announce`), in the caller's transaction. */
    announce: (actor: AuthUser, operation: string, change: AnnouncedChange) => announce(useCases, actor, operation, change),
    /** Every account holding a role (granted or by ADMIN_EMAILS), by e-mail. */
    list: () => listOperators(useCases),
    /** Grants a role to the account with this e-mail, or invites an e-mail with no account yet (role-changes.ts). */
    grant: (actor: { id: string; email: string }, email: string, role: OperatorRole) => grantRole(useCases, actor, email, role),
    /** The pending invitations that have not expired. */
    invitations: () => listInvitations(useCases),
    /** Revokes a pending invitation. */
    revokeInvitation: (id: string) => revokeInvitation(useCases, id),
    /** 'user.created': the new account's pending invitations become its roles. */
    acceptInvitations: (change: Change, userId: string) => acceptInvitations(useCases, change, userId),
    /** Revokes a granted role; never an ADMIN_EMAILS admin's, never the last admin's (role-changes.ts). */
    revoke: (userId: string, role: OperatorRole) => revokeRole(useCases, userId, role),
  };
}
