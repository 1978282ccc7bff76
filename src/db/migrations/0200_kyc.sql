-- KYC (issue 4): private uploads, tier submissions, and the sandbox identity simulators' data.
CREATE TABLE kyc_files (
  path text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  storage_key text NOT NULL,
  content_type text NOT NULL,
  size_bytes integer NOT NULL,
  sha256 text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX kyc_files_user_idx ON kyc_files (user_id, created_at);

CREATE TABLE kyc_submissions (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id),
  tier smallint NOT NULL CHECK (tier IN (1, 2, 3)),
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  files jsonb NOT NULL DEFAULT '[]'::jsonb,
  verified_name text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  identifier_hash text,
  payload_encrypted text,
  reason text,
  reviewed_by uuid,
  reviewed_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX kyc_submissions_user_idx ON kyc_submissions (user_id, tier, created_at);
CREATE INDEX kyc_submissions_status_idx ON kyc_submissions (status, created_at);
CREATE INDEX kyc_submissions_identifier_idx ON kyc_submissions (tier, identifier_hash);
-- At most one open (pending) or approved submission per user and tier; rejected ones may pile up.
CREATE UNIQUE INDEX kyc_submissions_open_key ON kyc_submissions (user_id, tier) WHERE status IN ('pending', 'approved');

CREATE TABLE sandbox_nin_records (
  nin text PRIMARY KEY,
  first_name text NOT NULL,
  middle_name text,
  last_name text NOT NULL,
  phone text NOT NULL,
  date_of_birth text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE sandbox_bank_accounts (
  bank_code text NOT NULL,
  account_number text NOT NULL,
  account_name text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (bank_code, account_number)
);
