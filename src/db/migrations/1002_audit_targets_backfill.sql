-- Issue 30: adminSearchAudit finds a target through target_ids (GIN, migration 1001). Rows written before the
-- registry wrote audit rows, and the rows code outside an operator call still writes (src/db/audit.ts: automatic
-- KYC decisions, customers' own credential changes), name one subject: it becomes their one target.
UPDATE audit_log
   SET target_ids = ARRAY[subject_id],
       targets = jsonb_build_array(jsonb_build_object('type', subject_type, 'id', subject_id))
 WHERE target_ids IS NULL AND subject_id IS NOT NULL;
