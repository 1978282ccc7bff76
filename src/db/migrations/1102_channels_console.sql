-- The operator's side of the channels (issue 46). The dashboard's volume by channel stays an index-only scan of the
-- range: vtu_transactions_dashboard_idx (migration 1030) now includes the channel.
DROP INDEX IF EXISTS vtu_transactions_dashboard_idx;
CREATE INDEX vtu_transactions_dashboard_idx ON vtu_transactions (created_at, id)
  INCLUDE (service, provider, status, amount, wholesale, updated_at, channel);

-- A channel an admin turned off (USSD, WhatsApp): one row per channel ever switched; a missing row means on.
CREATE TABLE channel_settings (
  channel text PRIMARY KEY CHECK (channel IN ('ussd', 'whatsapp')),
  enabled boolean NOT NULL,
  updated_by uuid NOT NULL,
  updated_at timestamptz NOT NULL
);
