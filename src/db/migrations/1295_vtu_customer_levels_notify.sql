-- Every instance keeps each buyer's price level in memory (a purchase read it in a statement of its own). Any write
-- to vtu_customer_levels, by any instance or by hand, announces the customer on channel vtu_levels_changed at
-- commit, and every instance drops that customer's copy (src/modules/vtu/levels.ts).
CREATE OR REPLACE FUNCTION vtu_customer_levels_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vtu_levels_changed', COALESCE(NEW.user_id, OLD.user_id)::text);
  RETURN NULL;
END $$;

CREATE TRIGGER vtu_customer_levels_changed AFTER INSERT OR UPDATE OR DELETE ON vtu_customer_levels
  FOR EACH ROW EXECUTE FUNCTION vtu_customer_levels_changed_notify();

-- A TRUNCATE names no customer: every copy is dropped.
CREATE OR REPLACE FUNCTION vtu_customer_levels_truncated_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vtu_levels_changed', '');
  RETURN NULL;
END $$;

CREATE TRIGGER vtu_customer_levels_truncated AFTER TRUNCATE ON vtu_customer_levels
  FOR EACH STATEMENT EXECUTE FUNCTION vtu_customer_levels_truncated_notify();
