-- Issue 30: the registry writes one audit row per admin call (src/http/admin-audit.ts). The handler-written rows
-- of before keep their columns; a registry row adds who held which roles, the outcome (ok, pending, or the error
-- code), the request id and address, the input with secrets removed, every target, and before/after states.
-- A call without a target has no subject, so subject_type and subject_id become optional.
ALTER TABLE audit_log ALTER COLUMN subject_type DROP NOT NULL, ALTER COLUMN subject_id DROP NOT NULL;
ALTER TABLE audit_log
  ADD COLUMN roles text[],
  ADD COLUMN outcome text,
  ADD COLUMN request_id text,
  ADD COLUMN ip text,
  ADD COLUMN input jsonb,
  ADD COLUMN targets jsonb,
  ADD COLUMN target_ids text[],
  ADD COLUMN before_state jsonb,
  ADD COLUMN after_state jsonb;

-- adminSearchAudit pages newest first by (created_at, id); one index per filter keeps each filter off a full scan.
CREATE INDEX audit_log_time_idx ON audit_log (created_at DESC, id DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, created_at DESC, id DESC);
CREATE INDEX audit_log_action_idx ON audit_log (action, created_at DESC, id DESC);
CREATE INDEX audit_log_target_ids_idx ON audit_log USING gin (target_ids);
