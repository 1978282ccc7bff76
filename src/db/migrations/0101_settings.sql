-- Settings (issue 3): user preferences; contract in docs/architecture.md (read by notifications).
CREATE TABLE user_preferences (
  user_id uuid PRIMARY KEY REFERENCES users(id),
  prefs jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);
