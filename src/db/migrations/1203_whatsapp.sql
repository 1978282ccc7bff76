-- The WhatsApp assistant (issue 46). A number is linked to one account (and an account to one number) by a one-time
-- code the customer makes in the app and sends from WhatsApp ("LINK 123456"); the code is kept hashed.
CREATE TABLE whatsapp_links (
  phone text PRIMARY KEY,
  user_id uuid NOT NULL UNIQUE REFERENCES users(id),
  linked_at timestamptz NOT NULL
);

CREATE TABLE whatsapp_link_codes (
  code_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX whatsapp_link_codes_user_idx ON whatsapp_link_codes (user_id);

-- Every inbound message id the webhook took: the key makes a duplicate webhook a no-op (it never buys twice).
CREATE TABLE whatsapp_inbound (
  message_id text PRIMARY KEY,
  phone text NOT NULL,
  received_at timestamptz NOT NULL
);
CREATE INDEX whatsapp_inbound_received_idx ON whatsapp_inbound (received_at);

-- Where a number's conversation is (the menu's state): it survives a restart. No PIN is ever in it.
CREATE TABLE whatsapp_conversations (
  phone text PRIMARY KEY,
  state jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);

-- A one-time PIN link: the token's SHA-256 only; what it confirms (a purchase or showing the balance or history),
-- used once (state waiting -> buying -> done), for 10 minutes.
CREATE TABLE whatsapp_pin_requests (
  token_hash text PRIMARY KEY,
  phone text NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id),
  action jsonb NOT NULL,
  summary text NOT NULL,
  amount_kobo bigint NOT NULL,
  language text NOT NULL,
  state text NOT NULL CHECK (state IN ('waiting', 'buying', 'done')),
  result text,
  transaction_id uuid,
  notified_at timestamptz,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX whatsapp_pin_requests_created_idx ON whatsapp_pin_requests (created_at);

-- Messages per number in the current minute (WHATSAPP_RATE_PER_MINUTE).
CREATE TABLE whatsapp_rate (
  phone text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL
);
