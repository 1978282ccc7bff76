-- Issue 30: operators look customers up, freeze them, and money actions wait for a second operator.

-- A frozen customer (one row while frozen; unfreezing deletes it, the audit log keeps the history). The session
-- cache holds "frozen" with the rest of a session's state, so a freeze or unfreeze is announced on auth_changed
-- like a change of the user's status (0002's function announces NEW/OLD.user_id).
CREATE TABLE account_freezes (
  user_id uuid PRIMARY KEY REFERENCES users(id),
  reason text NOT NULL,
  frozen_by uuid,
  frozen_at timestamptz NOT NULL
);
CREATE TRIGGER account_freezes_auth_inserted AFTER INSERT ON account_freezes FOR EACH ROW EXECUTE FUNCTION auth_changed_notify();
CREATE TRIGGER account_freezes_auth_changed AFTER UPDATE ON account_freezes FOR EACH ROW EXECUTE FUNCTION auth_changed_notify();
CREATE TRIGGER account_freezes_auth_deleted AFTER DELETE ON account_freezes FOR EACH ROW EXECUTE FUNCTION auth_changed_notify();

-- The customer search's look-ups, each an index probe: phone, e-mail prefix, a dedicated account number and a
-- settlement's processor reference without its processor.
CREATE INDEX users_phone_idx ON users (phone);
CREATE INDEX users_email_prefix_idx ON users (email text_pattern_ops);
CREATE INDEX dedicated_accounts_number_idx ON dedicated_accounts (account_number);
CREATE INDEX payment_settlements_reference_idx ON payment_settlements (processor_reference);

-- Four-eyes (maker-checker): a money action above its threshold waits here until a different operator approves
-- (then it runs, in the approving transaction) or rejects it; a pending request past expires_at reads as expired.
CREATE TABLE approval_requests (
  id text PRIMARY KEY,
  action text NOT NULL, -- wallet_adjustment | vtu_resolution | settlement_correction
  status text NOT NULL DEFAULT 'pending', -- pending | approved | rejected
  maker_id uuid NOT NULL,
  maker_reason text NOT NULL,
  subject_type text NOT NULL,
  subject_id text NOT NULL,
  amount bigint NOT NULL, -- kobo, the size the threshold compared (absolute)
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  checker_id uuid,
  decision_reason text,
  decided_at timestamptz,
  result jsonb
);
CREATE INDEX approval_requests_status_idx ON approval_requests (status, created_at DESC);
CREATE INDEX approval_requests_subject_idx ON approval_requests (subject_type, subject_id);

-- Per action: amounts below the threshold (kobo) take effect at once; a missing row means the default.
CREATE TABLE approval_settings (
  action text PRIMARY KEY,
  threshold bigint NOT NULL,
  updated_by uuid,
  updated_at timestamptz NOT NULL
);
