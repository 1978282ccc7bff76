-- Issue 32: service kinds (src/modules/vtu/kinds/<kind>). A kind added after the first six keeps its own purchase
-- inputs in this jsonb column (the first six keep their columns: network, plan_id, product, meter_type, quantity,
-- phone, profile_id), so a new kind needs no new column. NULL for the first six kinds' rows.
ALTER TABLE vtu_transactions ADD COLUMN inputs jsonb;
