-- Issue 45: "a customer at a level that allows it creates keys". Whether a price level's customers may create live
-- API keys (test keys stay open to any customer at KYC Tier 1); set with the level itself, through four-eyes.
ALTER TABLE vtu_price_levels ADD COLUMN api_keys boolean NOT NULL DEFAULT false;
UPDATE vtu_price_levels SET api_keys = true WHERE id IN ('agent', 'reseller', 'api_partner');
