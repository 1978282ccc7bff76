-- Support threads (issue 9): one open thread per user, enforced by a partial unique index.
CREATE TABLE support_threads (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  status text NOT NULL CHECK (status IN ('open', 'closed')),
  last_message_at timestamptz,
  last_author text,
  closed_at timestamptz,
  closed_by uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX support_threads_one_open ON support_threads (user_id) WHERE status = 'open';
CREATE INDEX support_threads_user_idx ON support_threads (user_id, created_at DESC);
CREATE INDEX support_threads_status_idx ON support_threads (status, last_message_at DESC);

CREATE TABLE support_messages (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  thread_id uuid NOT NULL REFERENCES support_threads(id),
  author_id uuid NOT NULL,
  author_role text NOT NULL CHECK (author_role IN ('user', 'operator')),
  body text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX support_messages_thread_idx ON support_messages (thread_id, seq DESC);

-- Lists are newest first; a sequence breaks ties between rows created in the same instant.
ALTER TABLE marketplace_orders ADD COLUMN seq bigserial NOT NULL;
ALTER TABLE subscription_orders ADD COLUMN seq bigserial NOT NULL;
