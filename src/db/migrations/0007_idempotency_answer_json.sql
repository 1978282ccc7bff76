-- A replayed answer is the stored answer byte for byte: json keeps the text as written (jsonb reorders object keys),
-- and nothing queries inside it.
ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE json USING response_body::json;
