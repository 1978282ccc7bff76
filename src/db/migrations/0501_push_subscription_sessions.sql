-- Issue 28: a push subscription belongs to the session that registered it and ends with it. A subscription planted
-- with a stolen access token used to outlive that token's session and receive the owner's security notices.
-- Rows from before this migration name no session (one of them may be such a planted endpoint): they are dropped,
-- and each browser registers again when its owner next turns notifications on.
DELETE FROM push_subscriptions;
ALTER TABLE push_subscriptions ADD COLUMN session_id uuid NOT NULL REFERENCES sessions(id) ON DELETE CASCADE;
CREATE INDEX push_subscriptions_session_idx ON push_subscriptions (session_id);

-- However a session ends (sign-out, supersession, "this wasn't me", refresh reuse, account closure, an operator's or
-- the owner's revocation), its subscriptions go in the same transaction. The database does it so that no code path
-- that ends a session, today's or a later one, can forget it. Expiry changes no row: delivery skips and removes the
-- subscriptions of expired sessions (modules/notifications/delivery.ts).
CREATE OR REPLACE FUNCTION push_subscriptions_end_with_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM push_subscriptions WHERE session_id = NEW.id;
  RETURN NULL;
END $$;

CREATE TRIGGER sessions_end_push_subscriptions AFTER UPDATE OF status ON sessions FOR EACH ROW
  WHEN (OLD.status = 'active' AND NEW.status <> 'active')
  EXECUTE FUNCTION push_subscriptions_end_with_session();
