-- Issue 11: every instance keeps the operator's growth settings in memory (a VTU purchase read them on every
-- delivery). Any write to growth_settings, by any instance or by hand, announces itself on channel
-- growth_settings_changed at commit, and every instance drops its copy (src/modules/growth/settings.ts).
CREATE OR REPLACE FUNCTION growth_settings_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('growth_settings_changed', '');
  RETURN NULL;
END $$;

CREATE TRIGGER growth_settings_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON growth_settings
  FOR EACH STATEMENT EXECUTE FUNCTION growth_settings_changed_notify();
