-- SMS sent through the gateway (issue #21) and their delivery reports. A report may arrive before the send's own
-- row is written: both sides upsert on (provider, message_id).
CREATE TABLE sms_messages (
  provider text NOT NULL,
  message_id text NOT NULL,
  to_masked text,
  status text NOT NULL CHECK (status IN ('sent', 'delivered', 'failed')),
  detail text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (provider, message_id)
);
CREATE INDEX sms_messages_status_idx ON sms_messages (status, created_at);
