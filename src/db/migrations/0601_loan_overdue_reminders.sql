-- Overdue loans are reminded weekly; remember when the last reminder went out.
ALTER TABLE loans ADD COLUMN last_reminded_at timestamptz;
CREATE INDEX loans_overdue_idx ON loans (last_reminded_at) WHERE status = 'overdue';
