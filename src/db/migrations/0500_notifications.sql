-- Notifications (issue 7): inbox read state, broadcasts with polls, web push subscriptions.

-- Contract with settings (docs/architecture.md "Preferences"); settings' 0101 creates it first on a fresh
-- database. IF NOT EXISTS keeps this file valid in either order.
CREATE TABLE IF NOT EXISTS user_preferences (
  user_id uuid PRIMARY KEY REFERENCES users(id),
  prefs jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);

-- The unread badge counts only unread rows.
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL;

CREATE TABLE broadcasts (
  id uuid PRIMARY KEY,
  title text NOT NULL,
  body text NOT NULL,
  -- {"minKycTier"?: 0-3, "joinedAfter"?: ISO date-time}; {} means every user.
  audience jsonb NOT NULL DEFAULT '{}'::jsonb,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz,
  ended_at timestamptz,
  created_by uuid NOT NULL REFERENCES users(id),
  created_at timestamptz NOT NULL,
  CHECK (ends_at IS NULL OR ends_at > starts_at)
);
CREATE INDEX broadcasts_active_idx ON broadcasts (starts_at DESC) WHERE ended_at IS NULL;

CREATE TABLE polls (
  id uuid PRIMARY KEY,
  broadcast_id uuid NOT NULL UNIQUE REFERENCES broadcasts(id),
  question text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE poll_options (
  id uuid PRIMARY KEY,
  poll_id uuid NOT NULL REFERENCES polls(id),
  label text NOT NULL,
  position smallint NOT NULL,
  UNIQUE (poll_id, position)
);

-- One vote per user per poll: the primary key decides, also under concurrent requests.
CREATE TABLE poll_votes (
  poll_id uuid NOT NULL REFERENCES polls(id),
  user_id uuid NOT NULL REFERENCES users(id),
  option_id uuid NOT NULL REFERENCES poll_options(id),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (poll_id, user_id)
);
CREATE INDEX poll_votes_option_idx ON poll_votes (option_id);

-- An endpoint identifies one browser's subscription; it belongs to the account that registered it last.
CREATE TABLE push_subscriptions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  endpoint text NOT NULL UNIQUE,
  p256dh text NOT NULL,
  auth text NOT NULL,
  created_at timestamptz NOT NULL,
  last_success_at timestamptz
);
CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id, created_at);
