-- Growth (referrals, milestones, check-ins), savings locks and loans (issue 8). Money lives in the ledger;
-- these tables hold the rules' state and enforce the "exactly once" constraints.

-- Operator-tunable rules; a missing key means the documented default (src/modules/growth/settings.ts).
CREATE TABLE growth_settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_by uuid,
  updated_at timestamptz NOT NULL
);

CREATE TABLE referral_codes (
  user_id uuid PRIMARY KEY REFERENCES users(id),
  code text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL
);

-- One referrer per account: the invitee is the key.
CREATE TABLE referrals (
  invitee_id uuid PRIMARY KEY REFERENCES users(id),
  referrer_id uuid NOT NULL REFERENCES users(id),
  code text NOT NULL,
  status text NOT NULL DEFAULT 'pending', -- pending | rewarded | capped
  reward_kobo bigint NOT NULL DEFAULT 0,
  qualified_at timestamptz,
  qualified_day date,
  created_at timestamptz NOT NULL,
  CONSTRAINT referrals_not_self CHECK (invitee_id <> referrer_id)
);
CREATE INDEX referrals_referrer_idx ON referrals (referrer_id, created_at);

CREATE TABLE referral_milestones (
  user_id uuid NOT NULL REFERENCES users(id),
  threshold integer NOT NULL,
  bonus_kobo bigint NOT NULL,
  reached_at timestamptz NOT NULL,
  acknowledged_at timestamptz,
  PRIMARY KEY (user_id, threshold)
);

-- Successful VTU purchases seen through 'vtu.succeeded' (first-purchase rule, unlock rule, loan history).
CREATE TABLE growth_purchases (
  transaction_id text PRIMARY KEY,
  user_id uuid NOT NULL,
  amount_kobo bigint NOT NULL,
  service text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX growth_purchases_user_idx ON growth_purchases (user_id, created_at);

-- One claim per user per Lagos calendar day, enforced by the key.
CREATE TABLE checkins (
  user_id uuid NOT NULL REFERENCES users(id),
  day date NOT NULL,
  streak integer NOT NULL,
  reward_kobo bigint NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, day)
);

CREATE TABLE savings_locks (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  principal_kobo bigint NOT NULL CHECK (principal_kobo > 0),
  days integer NOT NULL CHECK (days BETWEEN 1 AND 3650),
  rate_bps integer NOT NULL,
  break_fee_bps integer NOT NULL,
  interest_kobo bigint NOT NULL,
  status text NOT NULL DEFAULT 'active', -- active | matured | broken
  payout_kobo bigint,
  fee_kobo bigint,
  created_at timestamptz NOT NULL,
  matures_at timestamptz NOT NULL,
  closed_at timestamptz
);
CREATE INDEX savings_locks_user_idx ON savings_locks (user_id, created_at);
CREATE INDEX savings_locks_due_idx ON savings_locks (matures_at) WHERE status = 'active';

CREATE TABLE loans (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  principal_kobo bigint NOT NULL CHECK (principal_kobo > 0),
  fee_kobo bigint NOT NULL,
  late_fee_kobo bigint NOT NULL DEFAULT 0,
  repaid_kobo bigint NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'open', -- open | overdue | repaid
  created_at timestamptz NOT NULL,
  due_at timestamptz NOT NULL,
  overdue_at timestamptz,
  repaid_at timestamptz
);
-- One open loan per user, decided by the index under races.
CREATE UNIQUE INDEX loans_one_open_key ON loans (user_id) WHERE status <> 'repaid';
CREATE INDEX loans_user_idx ON loans (user_id, created_at);
CREATE INDEX loans_due_idx ON loans (due_at) WHERE status = 'open';
