-- Issue 44: an operator role given to an e-mail that has no account yet. The invitation waits (7 days) until that
-- e-mail signs in for the first time: the sign-up's user.created event grants the role and marks it accepted.
-- A revoked or expired invitation grants nothing; at most one pending invitation per e-mail and role.
CREATE TABLE operator_invitations (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'finance', 'support')),
  invited_by uuid NOT NULL REFERENCES users(id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  invited_by_email text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'revoked', 'expired')),
  accepted_user_id uuid REFERENCES users(id),
  ended_at timestamptz
);
CREATE UNIQUE INDEX operator_invitations_pending_idx ON operator_invitations (email, role) WHERE status = 'pending';
