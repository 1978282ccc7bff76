-- The sandbox liveness simulator's magic outcomes (POST /sandbox/identity/liveness), per customer e-mail.
CREATE TABLE sandbox_liveness_outcomes (
  email text PRIMARY KEY,
  outcome text NOT NULL,
  score double precision,
  reason text,
  created_at timestamptz NOT NULL
);
