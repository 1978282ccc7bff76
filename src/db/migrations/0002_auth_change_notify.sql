-- Issue 11: API instances cache a session's state (status, the user's status, tier, username, e-mail) in memory.
-- Any change to those columns, by any instance or by hand, announces the user id on channel auth_changed at
-- commit, and every instance drops that user's cached sessions (src/modules/identity/session-cache.ts).
CREATE OR REPLACE FUNCTION auth_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- users rows announce their id; sessions (and totp_factors, migration 0102) their user_id. A row moved to
  -- another user announces both.
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('auth_changed', OLD.id::text);
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('auth_changed', NEW.user_id::text);
  ELSE
    PERFORM pg_notify('auth_changed', OLD.user_id::text);
    IF TG_OP = 'UPDATE' AND NEW.user_id IS DISTINCT FROM OLD.user_id THEN
      PERFORM pg_notify('auth_changed', NEW.user_id::text);
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER users_auth_changed AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.email IS DISTINCT FROM NEW.email
        OR OLD.username IS DISTINCT FROM NEW.username OR OLD.kyc_tier IS DISTINCT FROM NEW.kyc_tier)
  EXECUTE FUNCTION auth_changed_notify();
CREATE TRIGGER users_auth_deleted AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION auth_changed_notify();

CREATE TRIGGER sessions_auth_changed AFTER UPDATE ON sessions FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION auth_changed_notify();
CREATE TRIGGER sessions_auth_deleted AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION auth_changed_notify();
