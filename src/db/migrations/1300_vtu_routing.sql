-- Provider routing set by an operator in the console (issue 45), owned by vtu: a kind's providers in order, for the
-- whole kind (network '') or for one network. It wins over VTU_ROUTING and the kind's default
-- (src/modules/vtu/routing.ts); who set it and when. Only the letters of the configuration (a-d) are stored.
CREATE TABLE vtu_routing (
  service text NOT NULL,
  network text NOT NULL DEFAULT '',
  providers text[] NOT NULL CHECK (cardinality(providers) BETWEEN 1 AND 4 AND providers <@ ARRAY['a', 'b', 'c', 'd']),
  updated_by uuid,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (service, network)
);

-- Every instance keeps the rows in memory for its purchases. Any write, by any instance or by hand, announces
-- 'routing' on the price levels' channel (migration 1295) at commit, and every instance drops its copy: one LISTEN
-- connection serves both.
CREATE OR REPLACE FUNCTION vtu_routing_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vtu_levels_changed', 'routing');
  RETURN NULL;
END $$;

CREATE TRIGGER vtu_routing_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON vtu_routing
  FOR EACH STATEMENT EXECUTE FUNCTION vtu_routing_changed_notify();
