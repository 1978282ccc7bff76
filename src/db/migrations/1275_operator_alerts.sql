-- The operators' alerts that hold now (issue 44, src/modules/console/alerts.ts): one row per alert while it holds, so
-- it is sent once; the row goes when it clears, and the alert is sent again if it comes back.
CREATE TABLE operator_alerts (
  key text PRIMARY KEY,
  raised_at timestamptz NOT NULL,
  title text NOT NULL
);
