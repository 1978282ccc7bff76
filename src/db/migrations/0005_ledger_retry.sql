-- Issue 11: a posting statement re-checks its limits in its UPDATE (PostgreSQL re-reads a row changed under the
-- statement there) and calls this when a row was refused after the transaction row was written, so the whole
-- statement is undone; the ledger then runs the posting again with a fresh view (src/ledger/ledger.ts).
CREATE FUNCTION ledger_retry() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger: a balance changed under the posting statement; retry it' USING ERRCODE = '40001';
END
$$;
