-- Issue #22, finding 6: NIN look-ups (lookupNin, submitNinKyc) per user per Lagos day. The row is taken with one
-- conditional upsert, so parallel requests cannot pass the daily quota.
CREATE TABLE kyc_nin_lookups (
  user_id uuid NOT NULL REFERENCES users(id),
  day date NOT NULL,
  used integer NOT NULL CHECK (used > 0),
  PRIMARY KEY (user_id, day)
);
