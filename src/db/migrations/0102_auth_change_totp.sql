-- Issue 11: the cached session state also says whether the user has a confirmed authenticator (the step-up gate
-- of every money operation asks), so a change to a user's factor is announced on auth_changed like 0002's.
CREATE TRIGGER totp_factors_auth_inserted AFTER INSERT ON totp_factors FOR EACH ROW EXECUTE FUNCTION auth_changed_notify();
CREATE TRIGGER totp_factors_auth_changed AFTER UPDATE ON totp_factors FOR EACH ROW
  WHEN (OLD.confirmed_at IS DISTINCT FROM NEW.confirmed_at OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION auth_changed_notify();
CREATE TRIGGER totp_factors_auth_deleted AFTER DELETE ON totp_factors FOR EACH ROW EXECUTE FUNCTION auth_changed_notify();
