-- Saved replies (issue 44), owned by support: an operator's canned answer, inserted into a thread's reply box in the
-- console ({name} becomes the customer's first name there). Titles are unique regardless of case.
CREATE TABLE support_canned_replies (
  id uuid PRIMARY KEY,
  title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 60),
  body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 2000),
  updated_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX support_canned_replies_title ON support_canned_replies (lower(title));
