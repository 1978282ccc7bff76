-- Issue 30: operator roles kept in the database (docs/security.md "Operator roles"). An operator holds one or more
-- of admin, finance, support; the ADMIN_EMAILS accounts are admins besides (config, not rows). A grant or
-- revocation is announced on auth_changed like 0002's, so every instance drops the user's cached sessions and the
-- next request sees the new roles.
CREATE TABLE operator_roles (
  user_id uuid NOT NULL REFERENCES users(id),
  role text NOT NULL CHECK (role IN ('admin', 'finance', 'support')),
  granted_by uuid REFERENCES users(id),
  granted_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, role)
);
CREATE INDEX operator_roles_role_idx ON operator_roles (role);

CREATE TRIGGER operator_roles_auth_inserted AFTER INSERT ON operator_roles FOR EACH ROW EXECUTE FUNCTION auth_changed_notify();
CREATE TRIGGER operator_roles_auth_deleted AFTER DELETE ON operator_roles FOR EACH ROW EXECUTE FUNCTION auth_changed_notify();
