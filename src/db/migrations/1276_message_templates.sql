-- Admins' wording of the customer e-mails and SMS per language (issue 44, src/modules/notifications/templates.ts):
-- a row overrides the default text of one template in one language; without one the default is sent.
CREATE TABLE message_templates (
  key text NOT NULL,
  language text NOT NULL CHECK (language IN ('en', 'ha', 'pcm', 'yo')),
  subject text,
  body text NOT NULL,
  updated_by uuid NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (key, language)
);
