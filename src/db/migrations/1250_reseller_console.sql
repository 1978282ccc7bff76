-- The console's side of issue 45. A purchase made with an API key records the key (usage by key and day, for the
-- reseller and for operators); NULL for a purchase made in a session, by USSD or by WhatsApp.
ALTER TABLE vtu_transactions ADD COLUMN api_key text;
CREATE INDEX vtu_transactions_api_key_idx ON vtu_transactions (api_key, created_at) WHERE api_key IS NOT NULL;

-- An admin may suspend any API key (a suspended key is refused with 403 KEY_SUSPENDED) and resume it later.
ALTER TABLE api_keys ADD COLUMN suspended_at timestamptz, ADD COLUMN suspended_by uuid;
