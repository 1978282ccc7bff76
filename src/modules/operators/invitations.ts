import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { OperatorRole } from '../../kernel/actor.js';
import { uuid } from '../../kernel/ids.js';
import type { OperatorsUseCaseDeps } from './deps.js';

/** How long an invitation waits for its e-mail's first sign-in. */
export const INVITATION_DAYS = 7;

export interface InvitationView {
  id: string;
  email: string;
  role: OperatorRole;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

const columns = sql`id::text AS id, email, role, invited_by_email AS "invitedBy", created_at AS "createdAt", expires_at AS "expiresAt"`;
const view = (r: InvitationView): InvitationView => ({
  ...r,
  createdAt: new Date(r.createdAt).toISOString(),
  expiresAt: new Date(r.expiresAt).toISOString(),
});

/**
 * Invites an e-mail with no account yet to a role: one pending invitation per e-mail and role (CONFLICT), an expired
 * one is closed first. The invited person is e-mailed in the same transaction (the outbox); their first sign-in
 * grants the role (role-changes.ts, acceptInvitations).
 */
export async function inviteOperator(
  deps: OperatorsUseCaseDeps,
  actor: { id: string; email: string },
  email: string,
  role: OperatorRole,
): Promise<InvitationView> {
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
  const address = email.toLowerCase();
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`UPDATE operator_invitations SET status = 'expired', ended_at = ${now}
      WHERE email = ${address} AND role = ${role} AND status = 'pending' AND expires_at <= ${now}`);
    const made = await one<InvitationView>(
      tx,
      sql`INSERT INTO operator_invitations (id, email, role, invited_by, invited_by_email, created_at, expires_at)
          VALUES (${uuid()}, ${address}, ${role}, ${actor.id}, ${actor.email}, ${now}, ${expires})
          ON CONFLICT (email, role) WHERE status = 'pending' DO NOTHING RETURNING ${columns}`,
    );
    if (!made) throw new AppError('CONFLICT', `${address} already has a pending invitation to the ${role} role: revoke it first`);
    await deps.outbox.sendEmail(tx, {
      to: address,
      subject: `You are invited to the operator console as ${role}`,
      text: [
        `${actor.email} invited you to the operator console with the ${role} role.`,
        `Sign in with this e-mail address at ${deps.consoleUrl} before ${expires.toISOString().slice(0, 10)}: the role is yours at your first sign-in.`,
        'If you did not expect this, ignore this e-mail.',
      ].join('\n'),
    });
    return view(made);
  });
}

/** The pending invitations that have not expired, newest first. */
export async function listInvitations(deps: OperatorsUseCaseDeps): Promise<InvitationView[]> {
  const found = await rows<InvitationView>(
    deps.db,
    sql`SELECT ${columns} FROM operator_invitations WHERE status = 'pending' AND expires_at > ${deps.clock.now()}
        ORDER BY created_at DESC, id LIMIT 500`,
  );
  return found.map(view);
}

/** Revokes a pending invitation (NOT_FOUND when there is none, or it was accepted, revoked or has expired). */
export async function revokeInvitation(deps: OperatorsUseCaseDeps, id: string): Promise<InvitationView> {
  const now = deps.clock.now();
  const gone = await one<InvitationView>(
    deps.db,
    sql`UPDATE operator_invitations SET status = 'revoked', ended_at = ${now}
        WHERE id = ${id} AND status = 'pending' AND expires_at > ${now} RETURNING ${columns}`,
  );
  if (!gone) throw notFound('Invitation');
  return view(gone);
}
