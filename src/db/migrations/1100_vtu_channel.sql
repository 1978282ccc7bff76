-- The channel a purchase was made on (issue 46): the app and the API, the USSD menu or the WhatsApp assistant.
ALTER TABLE vtu_transactions ADD COLUMN channel text NOT NULL DEFAULT 'app' CHECK (channel IN ('app', 'ussd', 'whatsapp'));
